import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

/** Builds the window (renderer/) into a fresh folder of its own, as `npm run build:window` does, and returns it. */
export async function buildWindow(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'design-sync-window-build-'));
  await build({ configFile: resolve('renderer.vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true } });
  return outDir;
}
