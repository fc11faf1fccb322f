import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportStl, loadToolSave, realTools, replayToolSave, sliceTo3mf, sliceToGcode } from './tool-saves';
import type { ToolSaveFixture } from './tool-saves';

const folders: string[] = [];
function designFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'design-sync-tool-saves-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function sizes(folder: string, files: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const file of files) out[file] = (await stat(join(folder, file))).size;
  return out;
}

// What each recorded save leaves in the design folder (test/fixtures/tool-saves/README.md).
const EXPECTED: Record<ToolSaveFixture, { files: Record<string, number>; magic: string }> = {
  blender: { files: { 'scene.blend': 866_624, 'scene.blend1': 861_720 }, magic: 'BLENDER' },
  freecad: { files: { 'housing.FCStd': 2_323, 'housing.FCStd1': 2_306 }, magic: 'PK' },
  'freecad-fcbak': { files: { 'housing.FCStd': 2_324, 'housing.20261129-044518.FCBak': 2_307 }, magic: 'PK' },
};

describe('recorded tool saves, replayed into a design folder', () => {
  for (const fixture of Object.keys(EXPECTED) as ToolSaveFixture[]) {
    it(`${fixture}: leaves exactly the tool's files, with its sizes and bytes`, async () => {
      const expected = EXPECTED[fixture];
      const folder = designFolder();
      const { finalFiles } = await replayToolSave(fixture, folder);
      expect(finalFiles).toEqual(Object.keys(expected.files).sort());
      expect(await sizes(folder, finalFiles)).toEqual(expected.files);
      const save = await loadToolSave(fixture);
      expect(save.content).toBe('recorded');
      for (const { path, sha256 } of save.finalFiles) {
        const bytes = await readFile(join(folder, path));
        expect(createHash('sha256').update(bytes).digest('hex'), path).toBe(sha256);
        expect(bytes.subarray(0, expected.magic.length).toString('latin1'), path).toBe(expected.magic);
      }
    });
  }

  it('writes through temporary names that the tool renames away', async () => {
    const blender = await loadToolSave('blender');
    expect(blender.steps.filter((s) => s.op === 'rename').map((s) => s.op === 'rename' && `${s.from} -> ${s.to}`)).toEqual([
      'scene.blend@ -> scene.blend',
      'scene.blend -> scene.blend1',
      'scene.blend@ -> scene.blend',
    ]);
    const freecad = await loadToolSave('freecad');
    expect(freecad.steps.filter((s) => s.op === 'unlink').map((s) => s.op === 'unlink' && s.path)).toEqual(['housing.FCStd1']);
    for (const step of freecad.steps) {
      if (step.op === 'open') expect(step.path).toMatch(/^housing\.FCStd\.[0-9a-f-]{36}$/);
    }
  });

  it('pauses between steps when asked, and ends the same', async () => {
    const folder = designFolder();
    const started = Date.now();
    const { finalFiles } = await replayToolSave('freecad', folder, { pauseMs: 2 });
    const steps = (await loadToolSave('freecad')).steps.length;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * (steps - 1) - 5);
    expect(finalFiles).toEqual(['housing.FCStd', 'housing.FCStd1']);
    await expect(replayToolSave('freecad', designFolder(), { pauseMs: -1 })).rejects.toThrow(RangeError);
    await expect(replayToolSave('freecad', designFolder(), { pauseMs: 60_000 })).rejects.toThrow(RangeError);
  });
});

const CUBE = 'cube([20, 20, 10]);\n';

function isStl(bytes: Buffer): boolean {
  if (bytes.length >= 84) {
    const triangles = bytes.readUInt32LE(80);
    if (triangles > 0 && bytes.length === 84 + 50 * triangles) return true;
  }
  const text = bytes.toString('latin1');
  return /^solid/.test(text) && text.includes('facet normal') && /endsolid[^\n]*\s*$/.test(text);
}

describe.skipIf(!realTools().openscad)('real OpenSCAD', () => {
  it('exports a cube as an STL into a design folder', async () => {
    const folder = designFolder();
    await exportStl(CUBE, join(folder, 'part.stl'));
    expect(isStl(await readFile(join(folder, 'part.stl')))).toBe(true);
  }, 90_000);

  it('fails with what OpenSCAD said', async () => {
    await expect(exportStl('cube(', join(designFolder(), 'part.stl'))).rejects.toThrow(/openscad .* failed .*(error|Parser)/is);
  }, 90_000);
});

describe.skipIf(!realTools().openscad || !realTools().prusaSlicer)('real PrusaSlicer', () => {
  it('exports a 3MF (a zip with the 3D model) and slices G-code from an STL', async () => {
    const folder = designFolder();
    const stl = join(folder, 'part.stl');
    await exportStl(CUBE, stl);

    await sliceTo3mf(stl, join(folder, 'part.3mf'));
    const threeMf = await readFile(join(folder, 'part.3mf'));
    expect(threeMf.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(threeMf.includes('3D/3dmodel.model')).toBe(true);

    await sliceToGcode(stl, join(folder, 'part.gcode'));
    const lines = (await readFile(join(folder, 'part.gcode'), 'utf8')).split('\n');
    expect(lines.some((line) => line.startsWith(';'))).toBe(true);
    expect(lines.some((line) => line.startsWith('G1 '))).toBe(true);
  }, 120_000);

  it('fails with what PrusaSlicer said', async () => {
    const folder = designFolder();
    await expect(sliceToGcode(join(folder, 'missing.stl'), join(folder, 'part.gcode'))).rejects.toThrow(/No such file/);
  }, 90_000);
});
