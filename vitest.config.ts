import { defineConfig } from 'vitest/config';
import SlowFilesFirst from './test/run/slow-files-first';
import { ISOLATED } from './test/run/isolation';

/**
 * Two test files at a time by default, also on 2 cores (vitest's own default there is one): most of a file's time is
 * spent waiting on the local service, child processes, Chromium and timers, not on the CPU. VITEST_MAX_WORKERS=1 runs
 * them one at a time again (to tell a failure from the machine's load).
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? 2);

/**
 * Files that replace modules (`vi.mock`) run each in a fresh process (test/run/isolation.ts). The rest share their
 * worker's loaded modules from one file to the next: loading the engine's modules anew for each of ~220 files took
 * about a second of a core each. They hold no state between files (each test opens its own engine, service, folders
 * and browser), which the suite keeps true by passing in either mode (`npx vitest run --isolate` loads every file
 * afresh).
 */
export default defineConfig({
  test: {
    // One build of the window for the run's window tests (harness/window-build.ts); the command line's and the local
    // service's bundles made before the files start (harness/source-bundles-once.ts).
    globalSetup: ['harness/window-build-once.ts', 'harness/source-bundles-once.ts'],
    // The command line and the tray speak the environment's language: tests read English whatever the machine's is
    // (the language tests set their own).
    env: { LC_ALL: 'C.UTF-8', LC_MESSAGES: '', LANG: 'C.UTF-8', LANGUAGE: '' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers,
    reporters: ['default'],
    // The slowest files first, so that the run does not end on one of them alone (test/run/slow-files-first.ts).
    sequence: { sequencer: SlowFilesFirst },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      { extends: true, test: { name: 'shared-modules', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
