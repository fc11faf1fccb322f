import { execFile, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, open, readdir, readFile, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

/**
 * Designers' real tools writing into a watched design folder: recorded save sequences replayed step for step
 * (test/fixtures/tool-saves/README.md tells how each was recorded), and the real OpenSCAD and PrusaSlicer CLIs, run
 * when installed (`apt-get install -y openscad prusa-slicer`).
 */

export const TOOL_SAVES_DIR = join(import.meta.dirname, '../fixtures/tool-saves');

/** The recorded saves: Blender 3.4 (scene.blend@ then renames), FreeCAD 0.20 with `.FCStd1` or `.FCBak` backups. */
export type ToolSaveFixture = 'blender' | 'freecad' | 'freecad-fcbak';

const FIXTURE_FILES: Record<ToolSaveFixture, string> = {
  blender: 'blender-save.json',
  freecad: 'freecad-save.json',
  'freecad-fcbak': 'freecad-fcbak-save.json',
};

/** A path inside the design folder, as the fixture names it: relative, never climbing out. */
const relativePath = z.string().min(1).refine((p) => !isAbsolute(p) && !p.split(/[\\/]/).includes('..'), 'a path inside the design folder');
const atMs = z.number().nonnegative();

const stepSchema = z.discriminatedUnion('op', [
  // Opened for writing, created or truncated (O_WRONLY|O_CREAT|O_TRUNC). `content`: the file of the fixture's
  // contentDir whose bytes the writes to this path take until it is closed, or 'filler' (recorded sizes, made-up bytes).
  z.object({ op: z.literal('open'), path: relativePath, content: z.string().min(1), atMs }),
  // `bytes` written at `offset`, or without one after the furthest byte this open has written so far.
  z.object({ op: z.literal('write'), path: relativePath, bytes: z.number().int().positive(), offset: z.number().int().nonnegative().optional(), atMs }),
  z.object({ op: z.literal('close'), path: relativePath, atMs }),
  z.object({ op: z.literal('fsync'), path: relativePath, atMs }),
  z.object({ op: z.literal('rename'), from: relativePath, to: relativePath, atMs }),
  z.object({ op: z.literal('copy'), from: relativePath, to: relativePath, atMs }),
  z.object({ op: z.literal('unlink'), path: relativePath, atMs }),
  z.object({ op: z.literal('mkdir'), path: relativePath, atMs }),
  z.object({ op: z.literal('rmdir'), path: relativePath, atMs }),
]);

const toolSaveSchema = z.object({
  tool: z.string(),
  version: z.string(),
  command: z.string(),
  recordedOn: z.string(),
  recordedWith: z.string(),
  content: z.enum(['recorded', 'filler']),
  contentDir: z.string().nullable(),
  steps: z.array(stepSchema).min(1),
  finalFiles: z.array(z.object({ path: relativePath, bytes: z.number().int().nonnegative(), sha256: z.string() })),
});

export type ToolSaveStep = z.infer<typeof stepSchema>;
export type ToolSave = z.infer<typeof toolSaveSchema>;

export async function loadToolSave(fixture: ToolSaveFixture): Promise<ToolSave> {
  const file = join(TOOL_SAVES_DIR, FIXTURE_FILES[fixture]);
  return toolSaveSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

/** Longest pause allowed between two replayed steps: a replay stays well inside a test's time. */
export const MAX_PAUSE_MS = 5_000;

/** Bytes standing in for content that was not kept: the same at the same offset, so replays are repeatable. */
function filler(offset: number, bytes: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) out[i] = ((offset + i) * 131 + 7) & 0xff;
  return out;
}

interface OpenFile {
  handle: FileHandle;
  source: Buffer | null;
  end: number;
}

/**
 * Performs a recorded save for real in the folder `into` (which must exist): the tool's opens, writes of the recorded
 * sizes (its real bytes where the fixture kept them), closes, renames and unlinks, in its order, with `pauseMs`
 * (awaited, at most MAX_PAUSE_MS) between steps so a watcher can see each. `beforeStep`, when given, is awaited before
 * each step (e.g. to let sync catch up before the tool's next save begins). Returns the files `into` holds at the end,
 * sorted.
 */
export async function replayToolSave(
  fixture: ToolSaveFixture, into: string,
  options: { pauseMs?: number; beforeStep?: (step: ToolSaveStep, index: number) => Promise<void> | void } = {},
): Promise<{ finalFiles: string[] }> {
  const pauseMs = options.pauseMs ?? 0;
  if (!Number.isFinite(pauseMs) || pauseMs < 0 || pauseMs > MAX_PAUSE_MS) {
    throw new RangeError(`pauseMs must be between 0 and ${MAX_PAUSE_MS}, not ${pauseMs}`);
  }
  const save = await loadToolSave(fixture);
  const sources = new Map<string, Buffer>();
  const content = async (name: string): Promise<Buffer | null> => {
    if (name === 'filler') return null;
    if (save.contentDir === null) throw new Error(`${fixture}: an open names content ${name}, but the fixture kept none`);
    let bytes = sources.get(name);
    if (!bytes) {
      bytes = await readFile(join(TOOL_SAVES_DIR, save.contentDir, name));
      sources.set(name, bytes);
    }
    return bytes;
  };
  const opened = new Map<string, OpenFile>();
  const openFile = (path: string, op: string): OpenFile => {
    const file = opened.get(path);
    if (!file) throw new Error(`${fixture}: ${op} of ${path}, which the replay has not opened`);
    return file;
  };
  try {
    for (const [index, step] of save.steps.entries()) {
      if (index > 0 && pauseMs > 0) await sleep(pauseMs);
      await options.beforeStep?.(step, index);
      switch (step.op) {
        case 'open': {
          if (opened.has(step.path)) throw new Error(`${fixture}: ${step.path} opened twice`);
          const source = await content(step.content);
          opened.set(step.path, { handle: await open(join(into, step.path), 'w'), source, end: 0 });
          break;
        }
        case 'write': {
          const file = openFile(step.path, 'write');
          const at = step.offset ?? file.end;
          const data = file.source ? file.source.subarray(at, at + step.bytes) : filler(at, step.bytes);
          if (data.length !== step.bytes) throw new Error(`${fixture}: the kept content of ${step.path} ends before byte ${at + step.bytes}`);
          await file.handle.write(data, 0, data.length, at);
          file.end = Math.max(file.end, at + step.bytes);
          break;
        }
        case 'fsync':
          await openFile(step.path, 'fsync').handle.sync();
          break;
        case 'close':
          await openFile(step.path, 'close').handle.close();
          opened.delete(step.path);
          break;
        case 'rename':
          await rename(join(into, step.from), join(into, step.to));
          break;
        case 'copy':
          await copyFile(join(into, step.from), join(into, step.to));
          break;
        case 'unlink':
          await unlink(join(into, step.path));
          break;
        case 'mkdir':
          await mkdir(join(into, step.path));
          break;
        case 'rmdir':
          await rmdir(join(into, step.path));
          break;
      }
    }
    if (opened.size > 0) throw new Error(`${fixture}: the steps leave ${[...opened.keys()].join(', ')} open`);
  } finally {
    await Promise.allSettled([...opened.values()].map((file) => file.handle.close()));
  }
  const entries = await readdir(into, { withFileTypes: true });
  return { finalFiles: entries.filter((entry) => entry.isFile()).map((entry) => entry.name).sort() };
}

function which(command: string): string | null {
  const found = spawnSync('which', [command], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() : '';
  return path === '' ? null : path;
}

let tools: { openscad: string | null; prusaSlicer: string | null } | undefined;

/** The real tools' paths where installed (found with `which`, once per process), else null. */
export function realTools(): { openscad: string | null; prusaSlicer: string | null } {
  tools ??= { openscad: which('openscad'), prusaSlicer: which('prusa-slicer') };
  return { ...tools };
}

/** How long one run of a real tool may take before it is killed. */
export const TOOL_TIMEOUT_MS = 60_000;

function run(tool: 'openscad' | 'prusaSlicer', args: string[]): Promise<void> {
  const path = realTools()[tool];
  const name = tool === 'openscad' ? 'openscad' : 'prusa-slicer';
  if (!path) return Promise.reject(new Error(`${name} is not installed (apt-get install -y ${name})`));
  return new Promise((resolve, reject) => {
    execFile(path, args, { timeout: TOOL_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (!error) {
        resolve();
        return;
      }
      const how = error.killed ? `was killed after ${TOOL_TIMEOUT_MS} ms` : `failed (exit code ${String(error.code)})`;
      reject(new Error(`${name} ${args.join(' ')} ${how}: ${String(stderr).trim().slice(-4000) || error.message}`));
    });
  });
}

/** Writes `scadSource` to a temporary .scad file and exports it with the real OpenSCAD to `outFile` (an .stl). */
export async function exportStl(scadSource: string, outFile: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'design-sync-scad-'));
  try {
    const scad = join(dir, 'model.scad');
    await writeFile(scad, scadSource);
    await run('openscad', ['-o', outFile, scad]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The real PrusaSlicer CLI exports the model in `stl` as a 3MF project (a zip) to `out3mf`. */
export async function sliceTo3mf(stl: string, out3mf: string): Promise<void> {
  await run('prusaSlicer', ['--export-3mf', '-o', out3mf, stl]);
}

/** The real PrusaSlicer CLI slices `stl` with its default printer and writes the G-code to `outGcode`. */
export async function sliceToGcode(stl: string, outGcode: string): Promise<void> {
  await run('prusaSlicer', ['--export-gcode', '-o', outGcode, stl]);
}
