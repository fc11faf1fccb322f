import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Where the Electron binary of `node_modules/electron` is, read the way its own index.js reads it (path.txt under the
 * package, the binary under dist/) but without its side effect: requiring `electron` from Node downloads the binary
 * when it is missing, which machines without internet cannot do. Null-safe: says why when there is none.
 */
export function findElectronBinary(packageDir: string, env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  if (!existsSync(join(packageDir, 'package.json'))) return { ok: false, reason: 'the electron package is not installed (run npm install)' };
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { ok: false, reason: 'Electron\'s binary was never downloaded (node_modules/electron/dist is missing)' };
  const relative = readFileSync(pathFile, 'utf8').trim();
  const path = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative) : join(packageDir, 'dist', relative);
  if (!existsSync(path)) return { ok: false, reason: `Electron's binary is missing (${path})` };
  return { ok: true, path };
}
