/**
 * The short form of the sync fuzz test (the long form: `npm run test:sync-fuzz -- --runs N`, see run-fuzz.ts).
 * A few fixed seeds, each a plan of 16 steps against the real CLI in a child process, with at most two kill -9, and
 * between them 2 to 6 steps about names never sent (drawn from a stream of their own: the 16 are what they were).
 * These seeds were kept because their plans hold the interleavings that broke sync before a listing knew when it was
 * asked for (files put in a folder while sync was not running, listings delayed by the service, then sync started;
 * kill -9 while the first sync made the design folders): on that code (58ffbe9) each failed "no file trashed without a real
 * remote deletion" in 6 to 8 runs of 8 (28 of 31 in all). They keep clear of interleavings that still break the
 * invariants on the fixed code (a service-side replace racing a local edit, a big design folder deleted), which the
 * long form finds. The steps are the seed's; their timing against the engine varies from run to run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../../harness/local-service';
import { formatViolations } from './invariants';
import { runSeed } from './run-seed';
import { describeStep } from './steps';

const SEEDS = [914, 2491, 7083, 7795];
const OPTIONS = { steps: 16, maxKills: 2, bulkMax: 60 };

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
});
afterAll(async () => {
  await service?.stop();
});

describe('sync under random local and remote changes, faults and kill -9', () => {
  it.each(SEEDS)('keeps its invariants for seed %i', async (seed) => {
    const result = await runSeed(service, seed, OPTIONS);
    const report = [
      formatViolations(seed, result.violations),
      'steps:',
      ...(result.plan.ignoreFile.length > 0 ? [`  #0 .designsyncignore: ${result.plan.ignoreFile.join(', ')}`] : []),
      ...result.plan.steps.map((step, i) => `  #${i + 1} ${describeStep(step)}`),
      'what they did:',
      ...result.log.map((line) => `  ${line}`),
      `again: npm run test:sync-fuzz -- --runs 1 --seed ${seed} --steps ${OPTIONS.steps} --kills ${OPTIONS.maxKills} --bulk ${OPTIONS.bulkMax}`,
    ].join('\n');
    expect(result.violations.map((v) => v.invariant), report).toEqual([]);
  }, 120_000);
});
