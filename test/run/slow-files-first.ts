import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take longest on 2 cores (seconds, a quiet clean-clone run), started first. With two files at a
 * time the run ends when its last file does. Vitest orders by the durations in its results cache; on a fresh clone
 * (CI) there is none and it starts the largest files first, which left the randomized sync test to run last, alone,
 * for half a minute. This table stands in for that cache until a run has made one; a file missing here (new or
 * renamed) keeps vitest's order behind these.
 */
export const SLOW_FILES: Readonly<Record<string, number>> = {
  'test/window/model-large-file.e2e.test.ts': 60,
  'test/window/model-formats.e2e.test.ts': 40,
  'test/window/welcome.e2e.test.ts': 37,
  'test/engine/sync/fuzz/sync-fuzz.test.ts': 37,
  'test/window/generated-thumbnails.e2e.test.ts': 36,
  'test/engine/sync/designers-tools.test.ts': 28,
  'test/service/seed.test.ts': 27,
  'test/window/drops.e2e.test.ts': 25,
  'test/engine/sample-service/sample-service.test.ts': 21,
  'test/engine/sync/sync-exit-status.test.ts': 20,
  'test/engine/service-gone-words.test.ts': 19,
  'test/engine/sync/sync-big-file.test.ts': 16,
  'test/engine/sync/sync-two-computers.test.ts': 16,
  'test/window/layout.e2e.test.ts': 16,
  'test/engine/cache/pull-writer.test.ts': 16,
};

export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const path = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId);
    if (ordered.some((spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`))) return ordered;
    const known = (spec: TestSpecification) => SLOW_FILES[path(spec)] ?? 0;
    // Array.prototype.sort is stable: files not listed keep vitest's order among themselves, after the listed ones.
    return ordered.sort((a, b) => known(b) - known(a));
  }
}
