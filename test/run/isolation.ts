/**
 * Test files that replace modules (`vi.mock` of Electron and the shell's parts) run each in a fresh process; the rest
 * share their worker's loaded modules from one file to the next (vitest.config.ts). `test/architecture/test-isolation.test.ts`
 * fails if a file that mocks a module is missing here.
 */
export const ISOLATED_FOLDERS = ['test/shell/'];

export const ISOLATED_FILES = [
  'test/contract/start-at-login.test.ts',
  'test/engine/sync/sync-folder-window.test.ts',
  'test/window/open-in-slicer-desktop.e2e.test.ts',
  'test/window/start-at-login.e2e.test.ts',
];

/** The include patterns of the isolated project. */
export const ISOLATED = [...ISOLATED_FOLDERS.map((folder) => `${folder}**/*.test.ts`), ...ISOLATED_FILES];
