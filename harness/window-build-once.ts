import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SHARED_WINDOW_BUILD_ENV } from './window-build';

/**
 * The test run's global setup: a folder for the run's one build of the window (made by the first test file that
 * needs it, see window-build.ts), removed when the run ends. The test files' processes inherit its name. Not in watch
 * mode, where files re-run after the window's code changed: each builds its own there.
 */
export default function shareOneWindowBuild(project: TestProject): () => void {
  if (project.config.watch) return () => {};
  const shared = mkdtempSync(join(tmpdir(), 'design-sync-test-window-'));
  process.env[SHARED_WINDOW_BUILD_ENV] = shared;
  return () => rmSync(shared, { recursive: true, force: true });
}
