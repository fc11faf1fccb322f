import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { FIRST_FRAME_FOLDER } from '../../shared';

export interface BuiltWindow {
  /** The window's folder (what the window host serves); its first frame's renderer is beside it. */
  dir: string;
  remove(): void;
}

/**
 * Builds the window as `npm run build:window` does, into a fresh folder of its own: the window (renderer/) and,
 * beside it, the renderer of its first frame (where the window host looks for it).
 */
export async function buildWindow(): Promise<BuiltWindow> {
  const outDir = mkdtempSync(join(tmpdir(), 'design-sync-window-build-'));
  const dir = join(outDir, 'renderer');
  await build({ configFile: resolve('renderer.vite.config.ts'), logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  await build({ configFile: resolve('renderer-first-frame.vite.config.ts'), logLevel: 'error', build: { outDir: join(outDir, FIRST_FRAME_FOLDER), emptyOutDir: true } });
  return { dir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}
