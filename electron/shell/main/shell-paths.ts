import { join } from 'node:path';

export interface ShellPaths {
  /** The built window (Vite's output). */
  renderer: string;
  preload: string;
  engineProcess: string;
  trayIcons: string;
}

/**
 * Where the built app's parts are, from the folder of the bundled main process (`dist/shell/`): the same layout in a
 * checkout and inside the packaged app's asar (build/electron-builder.json packs `dist/`).
 */
export function shellPaths(mainDir: string): ShellPaths {
  return {
    renderer: join(mainDir, '..', 'renderer'),
    preload: join(mainDir, 'preload.cjs'),
    engineProcess: join(mainDir, 'engine-process.mjs'),
    trayIcons: join(mainDir, 'tray-icons'),
  };
}
