/**
 * The long form of the sync fuzz test (opt-in, not part of `npm test`):
 *
 *   npm run test:sync-fuzz -- --runs 20 [--seed 1234] [--steps 40] [--kills 4] [--bulk 100] [--keep] [--verbose]
 *
 * Runs seeds S, S+1, … (S random unless given) against one local service with fault injection, prints each seed's
 * result and, for a failing seed, its steps, what they did, and the invariants it broke; exits 1 if any seed failed.
 * The same seed always gives the same steps; the timing of the syncing process against them varies from run to run.
 */
import { startTestService } from '../../../../harness/local-service';
import { formatViolations } from './invariants';
import { runSeed, type RunOptions } from './run-seed';
import { describeStep } from './steps';

function argsOf(argv: string[]) {
  const value = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    if (at === -1) return fallback;
    const parsed = Number(argv[at + 1]);
    if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} takes a whole number, got ${argv[at + 1]}`);
    return parsed;
  };
  return {
    runs: value('runs', 10),
    seed: value('seed', Math.floor(Math.random() * 1_000_000)),
    steps: value('steps', 40),
    kills: value('kills', 4),
    bulk: value('bulk', 100),
    keep: argv.includes('--keep'),
    verbose: argv.includes('--verbose'),
  };
}

const args = argsOf(process.argv.slice(2));
const options: RunOptions = {
  steps: args.steps, maxKills: args.kills, bulkMax: args.bulk, keepFailed: args.keep,
  ...(args.verbose ? { onStep: (line: string) => console.log(`    ${line}`) } : {}),
};
console.log(`sync fuzz: ${args.runs} runs from seed ${args.seed}, ${args.steps} steps, up to ${args.kills} kills, batches up to ${args.bulk} files`);
const service = await startTestService({ faultInjection: true });
const failed: number[] = [];
try {
  for (let n = 0; n < args.runs; n++) {
    const seed = args.seed + n;
    let line: string;
    try {
      const result = await runSeed(service, seed, options);
      const warnings = result.warnings.map((w) => `  (warning) ${w}`);
      if (result.violations.length === 0) {
        const { written, onService, ignoreChanges } = result.neverSent;
        const neverSent = `never sent: ${written} contents held back since written, ${onService} files of the service held back here, ${ignoreChanges} ignore-file changes`;
        line = [`seed ${seed}: ok (${result.plan.steps.length} steps, ${(result.ms / 1000).toFixed(1)} s; ${neverSent})`, ...warnings].join('\n');
      } else {
        failed.push(seed);
        line = [
          `seed ${seed}: FAILED (${result.violations.map((v) => v.invariant).join('; ')}) in ${(result.ms / 1000).toFixed(1)} s`,
          formatViolations(seed, result.violations),
          ...warnings,
          '  steps:',
          ...result.plan.designs.map((d) => `    #0 service: design "${d.name}" with ${d.files.map((f) => f.name).join(', ') || 'no files'}`),
          ...(result.plan.ignoreFile.length > 0 ? [`    #0 .designsyncignore: ${result.plan.ignoreFile.join(', ')}`] : []),
          ...result.plan.steps.map((step, i) => `    #${i + 1} ${describeStep(step)}`),
          '  what they did:',
          ...result.log.map((entry) => `    ${entry}`),
          ...(result.dir ? [`  kept: ${result.dir}`] : []),
          `  again: npm run test:sync-fuzz -- --runs 1 --seed ${seed} --steps ${args.steps} --kills ${args.kills} --bulk ${args.bulk}`,
        ].join('\n');
      }
    } catch (error) {
      failed.push(seed);
      line = `seed ${seed}: ERROR ${(error as Error).stack ?? String(error)}`;
    }
    console.log(line);
  }
} finally {
  await service.stop();
}
console.log(failed.length === 0 ? `all ${args.runs} seeds passed` : `${failed.length} of ${args.runs} seeds failed: ${failed.join(', ')}`);
process.exitCode = failed.length === 0 ? 0 : 1;
