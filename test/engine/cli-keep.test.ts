import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { runCliCapturing, type CliRun } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from './cache/cache-fixtures';

/** `design-sync keep`, `kept` and `keep --release`: designs kept offline from the command line, against the local service. */
const FIXTURES = join(import.meta.dirname, '../fixtures');

let service: TestService;
let profile: string;
const ids = {} as Record<'hinge' | 'clip', number>;
let clipSlug: string;

const cli = (...argv: string[]): Promise<CliRun> => runCliCapturing(profile, argv);

beforeAll(async () => {
  service = await startTestService();
  const { token } = service.addUser('maker');
  const api = new ServiceClient({ baseUrl: service.url, token: () => token, retry: { retries: 1, minDelayMs: 5, maxDelayMs: 10 } });
  const hinge = await api.createDesign({ name: 'Print-in-place Hinge', excerpt: 'A hinge', license: 'ccby' });
  await api.uploadImage(hinge.id, { path: join(FIXTURES, 'images/png-sample.png') });
  await api.uploadDocument(hinge.id, { path: join(FIXTURES, 'models/cube20.3mf') }, { name: 'Hinge (3MF)' });
  await api.uploadDocument(hinge.id, { path: join(FIXTURES, 'models/cube20.gcode') }, { name: 'Hinge (G-code)' });
  await api.publishDesign(hinge.id);
  ids.hinge = hinge.id;
  const clip = await api.createDesign({ name: 'Cable Clip', excerpt: 'A clip', license: 'cc0' });
  await api.uploadDocument(clip.id, { path: join(FIXTURES, 'models/cube20.stl') }, { name: 'Clip (STL)' });
  await api.publishDesign(clip.id);
  ids.clip = clip.id;
  clipSlug = clip.slug;
  profile = tempDir('cli-keep');
  expect((await cli('--service', service.url, 'pull')).code).toBe(0);
});

afterAll(async () => {
  await service.stop().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
});

describe('design-sync keep and kept', () => {
  it('says nothing is kept before anything is', async () => {
    const run = await cli('kept');
    expect(run.code).toBe(0);
    expect(run.out).toContain('No design is kept offline');
  });

  it('keep downloads every file of the designs named (by id or slug), printing how many files are here as they come, then where each design is', async () => {
    const run = await cli('keep', String(ids.hinge), clipSlug);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/Print-in-place Hinge {2}\(#\d+\) {2}Kept offline: 4 files, [\d.]+ KB\./);
    expect(run.out).toMatch(/Cable Clip {2}\(#\d+\) {2}Kept offline: 1 file, [\d.]+ KB\./);
    expect(run.err).toMatch(/Print-in-place Hinge: [0-3] of 4 files here/);
  });

  it('kept --json lists them with their space, which is the files\' bytes', async () => {
    const run = await cli('kept', '--json');
    expect(run.code).toBe(0);
    const kept = JSON.parse(run.out) as { designs: { designId: number; state: string; bytesHere: number }[]; bytes: number };
    expect(kept.designs.map((design) => [design.designId, design.state])).toEqual([[ids.hinge, 'ready'], [ids.clip, 'ready']]);
    const stl = readFileSync(join(FIXTURES, 'models/cube20.stl')).length;
    expect(kept.designs[1]!.bytesHere).toBe(stl);
    expect(kept.bytes).toBeGreaterThan(stl);
    expect((await cli('kept')).out).toContain('2 designs kept offline, taking');
  });

  it('refuses a design that is nowhere, naming it, and exits non-zero', async () => {
    const run = await cli('keep', 'no-such-bracket');
    expect(run.code).not.toBe(0);
    expect(run.err).toContain('no-such-bracket');
  });

  it('keep --release stops keeping a design and says its files stay until the space is needed', async () => {
    const run = await cli('keep', '--release', String(ids.clip));
    expect(run.code).toBe(0);
    expect(run.out).toContain(`Released #${ids.clip}`);
    const kept = JSON.parse((await cli('kept', '--json')).out) as { designs: { designId: number }[] };
    expect(kept.designs.map((design) => design.designId)).toEqual([ids.hinge]);
    const again = await cli('keep', '--release', String(ids.clip));
    expect(again.err).toContain('Not kept offline');
  });
});
