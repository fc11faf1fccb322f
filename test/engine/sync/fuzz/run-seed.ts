/**
 * One run of the sync fuzz test: a fresh user, profile and sync folder; the plan of the seed carried out step by
 * step against the real CLI in a child process (started, stopped, killed with SIGKILL); then everything settles
 * (faults lifted, the watching process stopped, two final `design-sync sync <folder>` passes) and the invariants
 * are checked. The plan is the seed's; the timing of the engine against the steps is not, so a failing seed may
 * need a few runs to fail again.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestService } from '../../../../harness/local-service';
import { runCliCapturing } from '../../../support/cli';
import { act, type ActionContext } from './actions';
import { IGNORE_FILE, parseIgnoreText } from '../../../../electron/engine/sync/ignore/never-sent-rules';
import { CliProcess, Faults, readSyncState, readTrash, ServiceSide, sleep, type FuzzPaths } from './driver';
import { checkInvariants, oddities, type Snapshot, type Violation } from './invariants';
import { describeStep, planRun, type Plan, type PlanOptions } from './steps';
import { LocalIndex, World } from './world';

export interface RunOptions extends PlanOptions {
  /** Keep the run's folder (profile, sync folder, the CLI's output) when it fails or warns. */
  keepFailed?: boolean;
  /** Told of each step as it is done. */
  onStep?: (line: string) => void;
}

/** `warnings`: odd things seen that break none of the invariants (printed, not failing the run). */
export interface RunResult {
  seed: number; plan: Plan; violations: Violation[]; warnings: string[]; log: string[]; ms: number; dir: string | null;
  /** What the run did with names never sent: contents written held back, files of the service seen held back, ignore-file changes. */
  neverSent: { written: number; onService: number; ignoreChanges: number };
}

// The service is looked at every second, so that its changes are brought in while local ones happen (live sync).
const WATCH = (root: string) => ['sync', root, '--watch', '--settle-ms', '50', '--poll-seconds', '1', '--accept-content-policy'];
const FINAL = (root: string) => ['sync', root, '--settle-ms', '50', '--accept-content-policy', '--allow-mass-delete'];
const MILESTONE_TIMEOUT_MS = { start: 15_000, folder: 15_000, queued: 15_000, watching: 40_000 };
let users = 0;

export async function runSeed(service: TestService, seed: number, options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const plan = planRun(seed, options);
  const dir = mkdtempSync(join(tmpdir(), `design-sync-fuzz-${seed}-`));
  const paths: FuzzPaths = { dir, profile: join(dir, 'profile'), root: join(dir, 'Designs'), home: join(dir, 'home'), scratch: join(dir, 'scratch') };
  for (const path of [paths.root, paths.home, paths.scratch]) mkdirSync(path, { recursive: true });
  const world = new World(seed);
  const { token } = service.addUser(`fuzz${seed}n${++users}`);
  const ctx: ActionContext = {
    seed, paths, world, local: new LocalIndex(paths.root), service: new ServiceSide(service.url, token),
    faults: new Faults(service.url, (text) => world.note(0, text)),
  };
  const processes: CliProcess[] = [];
  // For each process: the items the ones before it left running (killed while sending), which it may let finish.
  const leftRunning = new Map<CliProcess, Set<number>>();
  const spawnCli = (args: string[]) => {
    const running = new Set((readSyncState(paths.profile)?.items ?? []).filter((item) => item.state === 'running').map((item) => item.id));
    const child = new CliProcess(paths, args);
    leftRunning.set(child, running);
    processes.push(child);
    return child;
  };
  const problems: string[] = [];
  const warnings: string[] = [];
  let engine: CliProcess | null = null;
  const say = (index: number, text: string) => {
    world.note(index, text);
    options.onStep?.(`seed ${seed} #${index} ${text}`);
  };
  const startEngine = () => {
    engine = spawnCli(WATCH(paths.root));
    return engine;
  };
  const stopEngine = async (index: number) => {
    const running: CliProcess | null = engine;
    engine = null;
    if (!running) return;
    await running.stop(12_000);
    if (running.stoppedHard) warnings.push(`#${index}: Ctrl-C did not stop \`design-sync sync --watch\` within 12 s (SIGKILL); its last lines:\n${tail(running.output)}`);
  };

  const login = await runCliCapturing(paths.profile, ['--service', service.url, 'login', '--with-token'], token);
  if (login.code !== 0) throw new Error(`login failed: ${login.err}`);
  for (const design of plan.designs) say(0, (await act(ctx, 0, { do: 'remote-design', name: design.name, files: design.files })) ?? '');
  if (plan.ignoreFile.length > 0) {
    writeFileSync(join(paths.root, IGNORE_FILE), plan.ignoreFile.map((line) => `${line}\n`).join(''));
    world.ignore.set(null, plan.ignoreFile, 0);
    say(0, `${IGNORE_FILE} holds ${plan.ignoreFile.join(', ')}`);
  }

  for (const [i, step] of plan.steps.entries()) {
    const index = i + 1;
    const current = engine as CliProcess | null;
    if (current?.exitedByItself) {
      problems.push(`before #${index}: \`design-sync sync --watch\` exited by itself (${JSON.stringify(await current.exited)}); its last lines:\n${tail(current.output)}`);
      engine = null;
    }
    try {
      switch (step.do) {
        case 'start':
          if (!engine) startEngine();
          say(index, 'sync --watch running');
          break;
        case 'stop':
          await stopEngine(index);
          say(index, 'stopped (Ctrl-C)');
          break;
        case 'kill': {
          const victim: CliProcess = engine ?? startEngine();
          engine = null;
          const reached = await victim.milestone(step.at, MILESTONE_TIMEOUT_MS[step.at]);
          await sleep(step.jitterMs);
          await victim.kill();
          say(index, `kill -9 ${reached ? `${step.jitterMs} ms after "${step.at}"` : `("${step.at}" did not come)`}`);
          break;
        }
        case 'wait':
          await sleep(step.ms);
          break;
        case 'idle':
          say(index, (await waitIdle(paths.profile, step.deadlineMs)) ? 'idle' : `not idle after ${step.deadlineMs} ms`);
          break;
        case 'fault':
          await ctx.faults.add(step.rule);
          say(index, describeStep(step));
          break;
        case 'clear-faults':
          await ctx.faults.clear();
          say(index, 'faults cleared');
          break;
        default:
          say(index, (await act(ctx, index, step)) ?? `${describeStep(step)}: nothing to do`);
      }
    } catch (error) {
      say(index, `${describeStep(step)} failed: ${(error as Error).message}`);
    }
  }

  // Settle: no more faults; the watching process finishes what it can and stops; two final passes.
  await ctx.faults.clear();
  if (engine) {
    say(plan.steps.length + 1, (await waitIdle(paths.profile, 20_000)) ? 'idle before the final pass' : 'not idle after 20 s');
    await stopEngine(plan.steps.length + 1);
  }
  const restless: string[] = [];
  for (const pass of [1, 2]) {
    const final = spawnCli(FINAL(paths.root));
    const timer = setTimeout(() => void final.kill(), 120_000);
    const exit = await final.exited;
    clearTimeout(timer);
    say(plan.steps.length + 1 + pass, `final pass ${pass}: ${exit.signal ?? `exit ${exit.code}`}`);
    if (exit.signal) problems.push(`final pass ${pass} did not end within 120 s; its last lines:\n${tail(final.output)}`);
    if (/^STOPPED: /m.test(final.output)) problems.push(`final pass ${pass} stopped: ${/^STOPPED: (.*)$/m.exec(final.output)![1]}`);
    if (exit.code !== 0 && exit.code !== 1) problems.push(`final pass ${pass} failed (exit ${exit.code}):\n${tail(final.output)}`);
    if (pass === 2) restless.push(...leftoverWork(final.output));
  }

  // The ignore files are the test's alone: as it last wrote them.
  for (const folder of [null, ...ctx.local.folders()]) {
    const path = join(paths.root, folder ?? '', IGNORE_FILE);
    const onDisk = existsSync(path) ? parseIgnoreText(readFileSync(path, 'utf8')).lines.map((l) => l.pattern) : [];
    if (onDisk.join('\n') !== world.ignore.lines(folder).join('\n')) {
      warnings.push(`${folder ? `${folder}/` : ''}${IGNORE_FILE} holds ${onDisk.join(', ') || 'nothing'}, not what the test last wrote (${world.ignore.lines(folder).join(', ') || 'nothing'})`);
    }
  }
  const snap: Snapshot = {
    local: ctx.local.all(true), topFolders: ctx.local.folders(),
    designs: (await ctx.service.designs()).map((d) => ({ id: d.id, name: d.name })), remote: new Map(),
    folders: [], items: [], trash: readTrash(paths), processProblems: problems, restless, status: null,
    processes: processes.map((p) => ({ startedAt: p.startedAt, endedAt: p.endedAt, leftRunning: leftRunning.get(p)! })),
  };
  for (const design of snap.designs) snap.remote.set(design.id, await ctx.service.files(design.id));
  const state = readSyncState(paths.profile);
  snap.folders = state?.folders ?? [];
  snap.items = state?.items ?? [];
  snap.status = state?.status ?? null;
  const violations = checkInvariants(world, snap);
  warnings.push(...oddities(snap));

  const keep = (violations.length > 0 || warnings.length > 0) && options.keepFailed === true;
  if (keep) writeFileSync(join(dir, 'processes.log'), processes.map((p, n) => `=== process ${n + 1}\n${p.output}`).join('\n'));
  else rmSync(dir, { recursive: true, force: true });
  const neverSent = { written: world.neverSendable.size, onService: world.heldOnService.size, ignoreChanges: world.ignore.history.length };
  return { seed, plan, violations, warnings, log: world.log, ms: Date.now() - started, dir: keep ? dir : null, neverSent };
}

/**
 * Waits until nothing waits or runs in the queue, no scan runs and no item changed, for 700 ms in a row (the
 * watcher's debounce and the settle time fit in it); false at the deadline. sync_status's 'syncing' is not trusted:
 * a process killed while sending leaves it behind.
 */
async function waitIdle(profile: string, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  let since = Date.now();
  let lastMark = '';
  while (Date.now() < deadline) {
    const state = readSyncState(profile);
    const busy = !state || state.status.counts.waiting + state.status.counts.running > 0 || state.status.state === 'scanning';
    const mark = state ? `${state.items.length}:${Math.max(0, ...state.items.map((i) => i.updatedAt))}` : '';
    if (busy || mark !== lastMark) since = Date.now();
    lastMark = busy ? '' : mark;
    if (Date.now() - since >= 700) return true;
    await sleep(150);
  }
  return false;
}

/** What the second final pass still found to do (a pass right after a complete one should find nothing). */
function leftoverWork(output: string): string[] {
  const remote = /^from the service: (\d+) downloaded, (\d+) updated, (\d+) renamed, (\d+) moved to the trash, (\d+) conflicts?$/m.exec(output);
  const queued = /^folder: .*, (\d+) changes? queued/m.exec(output);
  const found: string[] = [];
  if (remote && remote.slice(1).some((n) => n !== '0')) found.push(`the second final pass still brought changes from the service: ${remote[0]}`);
  if (queued && queued[1] !== '0') found.push(`the second final pass still queued ${queued[1]} changes: ${queued[0]}`);
  return found;
}

const tail = (output: string) => output.trim().split('\n').slice(-8).map((line) => `        ${line}`).join('\n');
