import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCliCapturing, type CliRun } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from './cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { recordedArguments, recordingProgram, writeEntry } from './slicers/slicer-fixtures';

/**
 * `design-sync open <design> [file] [--slicer] [--list]` and `design-sync slicers`: a model file opened in a slicer found
 * on this computer (desktop entries whose programs are real scripts recording their arguments; `xdg-open` too).
 */
const MODELS = join(import.meta.dirname, '../fixtures/models');

let service: TestService;
let profile: string;
let desktop: string;
const ids: Record<string, number> = {};
const cube = () => String(ids.design);
const records = { orca: '', viewer: '', xdgOpen: '' };

const cli = (...argv: string[]): Promise<CliRun> => runCliCapturing(profile, argv);

beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('maker');
  const client = clientFor(service.url, token);
  const design = await client.createDesign({ name: 'Cube', excerpt: 'A 20 mm cube', license: 'cc0' });
  ids.threeMf = (await client.uploadDocument(design.id, { path: join(MODELS, 'cube20.3mf') }, { name: 'Cube (3MF)' })).id;
  ids.gcode = (await client.uploadDocument(design.id, { path: join(MODELS, 'cube20.gcode') }, { name: 'Cube (G-code)' })).id;
  ids.picture = (await client.uploadDocument(design.id, { path: join(MODELS, '../images/png-sample.png') }, { name: 'Picture' })).id;
  await client.publishDesign(design.id);
  ids.design = design.id;

  desktop = tempDir('cli-open-desktop');
  const bin = join(desktop, 'bin');
  mkdirSync(bin);
  records.orca = join(desktop, 'orca.txt');
  records.viewer = join(desktop, 'viewer.txt');
  records.xdgOpen = join(desktop, 'xdg-open.txt');
  recordingProgram(join(bin, 'orca-slicer'), records.orca);
  recordingProgram(join(bin, 'gcode-viewer'), records.viewer);
  recordingProgram(join(bin, 'xdg-open'), records.xdgOpen);
  writeEntry(join(desktop, 'data/applications'), 'OrcaSlicer.desktop', `[Desktop Entry]\nType=Application\nName=OrcaSlicer\nExec=orca-slicer %F\nMimeType=model/stl;model/3mf;\n`);
  writeEntry(join(desktop, 'data/applications'), 'viewer.desktop', `[Desktop Entry]\nType=Application\nName=Toolpath Viewer\nExec=gcode-viewer --view %f\nMimeType=text/x.gcode;\n`);
  vi.stubEnv('XDG_DATA_HOME', join(desktop, 'home-data'));
  vi.stubEnv('XDG_DATA_DIRS', join(desktop, 'data'));
  vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);

  profile = tempDir('cli-open');
  expect((await cli('--service', service.url, 'pull')).code).toBe(0);
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await service?.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  rmSync(desktop, { recursive: true, force: true });
});

describe('design-sync open and slicers', () => {
  // Each test starts with no choice remembered and nothing recorded.
  beforeEach(() => {
    const settingsFile = join(profile, 'settings.json');
    const { openModelWith: _forgotten, ...settings } = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify(settings));
    for (const record of Object.values(records)) rmSync(record, { force: true });
  });

  it('lists the slicers found, and those that open one file with the one it opens in marked', async () => {
    const all = await cli('slicers');
    expect(all.code).toBe(0);
    expect(all.out.split('\n')).toEqual([
      '* OrcaSlicer  [desktop:OrcaSlicer.desktop]  stl, 3mf, obj, amf, step, stp',
      '  Toolpath Viewer  [desktop:viewer.desktop]  gcode',
      '  System default app  [system]  stl, obj, 3mf, amf, ply, step, stp, gcode',
    ]);
    const gcode = await cli('open', cube(), 'cube20.gcode', '--list', '--json');
    expect(JSON.parse(gcode.out)).toMatchObject({ type: 'gcode', chosen: 'desktop:viewer.desktop', slicers: [{ name: 'Toolpath Viewer' }, { name: 'System default app' }] });
  });

  it('opens a model not kept offline in the slicer named, fetched first, and remembers it', async () => {
    const run = await cli('open', cube(), '--slicer', 'orcaslicer');
    expect(run).toMatchObject({ code: 0, out: 'Opened in OrcaSlicer.' });
    const [file] = await recordedArguments(records.orca);
    expect(file).toBe(join(profile, 'opened', String(ids.threeMf), 'cube20.3mf'));
    expect(readFileSync(file!)).toEqual(readFileSync(join(MODELS, 'cube20.3mf')));
    expect(JSON.parse(readFileSync(join(profile, 'settings.json'), 'utf8')).openModelWith).toEqual({ '3mf': 'desktop:OrcaSlicer.desktop', '*': 'desktop:OrcaSlicer.desktop' });
  });

  it('opens G-code in the G-code viewer found, and anything with the system\'s default app through xdg-open', async () => {
    expect((await cli('open', cube(), 'Cube (G-code)')).out).toBe('Opened in Toolpath Viewer.');
    expect(await recordedArguments(records.viewer)).toEqual(['--view', join(profile, 'opened', String(ids.gcode), 'cube20.gcode')]);
    const system = await cli('open', cube(), String(ids.gcode), '--slicer', 'system');
    expect(system.code).toBe(0);
    expect(await recordedArguments(records.xdgOpen)).toEqual([join(profile, 'opened', String(ids.gcode), 'cube20.gcode')]);
  });

  it('refuses what is not a model, a slicer it cannot find, and a file the design does not have, saying why', async () => {
    expect(await cli('open', cube(), 'Picture')).toMatchObject({ code: 1, err: expect.stringMatching(/not a model a slicer opens \(it is a \.png file\)/) });
    expect(await cli('open', cube(), '--slicer', 'Cura')).toMatchObject({ code: 1, err: expect.stringMatching(/No slicer "Cura" was found.*found: OrcaSlicer, System default app/) });
    expect(await cli('open', cube(), 'gear.stl')).toMatchObject({ code: 1, err: expect.stringMatching(/^Cube has no file "gear.stl"; its files: cube20\.3mf \(#\d+\), cube20\.gcode \(#\d+\), Picture \(#\d+\)\.$/) });
  });
});
