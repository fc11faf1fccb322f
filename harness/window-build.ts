import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { FIRST_FRAME_FOLDER } from '../shared';
import { until } from './until';

export interface BuiltWindow {
  /** The window's folder (what the window host serves); its first frame's renderer is beside it. */
  dir: string;
  remove(): void;
}

/** Set by the test run (window-build-once.ts): a folder where the run's one build of the window is made and shared. */
export const SHARED_WINDOW_BUILD_ENV = 'DESIGN_SYNC_TEST_WINDOW_BUILD';

/** The window (renderer/) into `outDir`/renderer, and beside it the renderer of its first frame (where the host looks). */
async function buildInto(outDir: string): Promise<string> {
  const dir = join(outDir, 'renderer');
  await build({ configFile: resolve('renderer.vite.config.ts'), logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  await build({ configFile: resolve('renderer-first-frame.vite.config.ts'), logLevel: 'error', build: { outDir: join(outDir, FIRST_FRAME_FOLDER), emptyOutDir: true } });
  return dir;
}

/**
 * The run's one build, shared by its test files (2–3 s each otherwise): the first to ask makes it (a folder made
 * with mkdir is the lock: only one process makes it), the others wait for it to be ready.
 */
async function sharedBuild(shared: string): Promise<BuiltWindow> {
  const outDir = join(shared, 'build');
  const ready = join(shared, 'ready');
  const failed = join(shared, 'failed');
  const making = (() => {
    try {
      mkdirSync(join(shared, 'building'));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  })();
  if (making) {
    try {
      await buildInto(outDir);
      writeFileSync(ready, '');
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
  } else {
    await until('the shared build of the window', () => existsSync(ready) || existsSync(failed), 120_000);
    if (existsSync(failed)) throw new Error(`The shared build of the window failed: ${readFileSync(failed, 'utf8')}`);
  }
  return { dir: join(outDir, 'renderer'), remove: () => {} };
}

/**
 * The window as `npm run build:window` builds it: the run's shared build in a test run, else a fresh folder of its
 * own (the benchmarks, the screenshots), removed by `remove`.
 */
export async function buildWindow(): Promise<BuiltWindow> {
  const shared = process.env[SHARED_WINDOW_BUILD_ENV];
  if (shared) return sharedBuild(shared);
  const outDir = mkdtempSync(join(tmpdir(), 'design-sync-window-build-'));
  const dir = await buildInto(outDir);
  return { dir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
