import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_NODE_FLAGS } from '../../electron/engine/runtime/engine-node-flags';
import { until } from '../../harness/until';

/** The design-sync command as its own process (bin/design-sync.mjs), as a person or a script runs it in another terminal. */

const REPO = join(import.meta.dirname, '../..');

/** Tests run as root on some machines: there chmod stops nobody, so permission tests run the CLI as `nobody`. */
export const IS_ROOT = process.getuid?.() === 0;
export const NOBODY = { uid: 65534, gid: 65534 };

/**
 * Whether permission tests can run here: not as root (chmod applies), or as root able to run the CLI as `nobody`
 * (the checkout readable by others). Otherwise they are skipped rather than proving nothing.
 */
let permissionsProbe: boolean | undefined;
export function permissionsApply(): boolean {
  if (!IS_ROOT) return true;
  permissionsProbe ??= spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(join(REPO, 'node_modules/tsx/package.json'))})`], { ...NOBODY, stdio: 'ignore' }).status === 0;
  return permissionsProbe;
}

export interface CliOptions {
  /** The profile (as DESIGN_SYNC_PROFILE; the home folder of a CLI run `as` another user). */
  profile?: string;
  /** Standard input (e.g. a token for `login --with-token`); empty by default. */
  stdin?: string;
  /** Run the CLI as this user (root only). */
  as?: { uid: number; gid: number };
  /** Run the CLI inside `unshare -m sh -c '<setup> && exec node …'` (root only): a mount of its own, e.g. a read-only disk. */
  inMountNamespace?: string;
}

export interface CliProcess {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Where the output (stdout and stderr, in arrival order) ends now: for waitFor(…, { after }). */
  mark(): number;
  /**
   * Waits until the output (stdout and stderr, in arrival order; from `after` on when given) matches, or fails at the
   * deadline with what was printed. A number is the deadline alone.
   */
  waitFor(pattern: RegExp, options?: number | { timeoutMs?: number; after?: number }): Promise<void>;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Ctrl-C, then the exit code. */
  interrupt(): Promise<number | null>;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The design-sync CLI as a real child process, with `argv` as given. */
export function startCliChild(argv: string[], options: CliOptions = {}): CliProcess {
  // Node as the command's own first line starts it, with the engine's flags.
  const args = [...ENGINE_NODE_FLAGS, join(REPO, 'bin/design-sync.mjs'), ...argv];
  const env = {
    ...process.env,
    ...(options.profile ? { DESIGN_SYNC_PROFILE: options.profile } : {}),
    ...(options.as ? { HOME: options.profile ?? tmpdir() } : {}),
  };
  const child = options.inMountNamespace
    ? spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `${options.inMountNamespace} && exec ${[process.execPath, ...args].map(quote).join(' ')}`], { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'], ...(options.as ?? {}) });
  child.stdin!.end(options.stdin ?? '');
  let out = '';
  let err = '';
  let all = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    all += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    all += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    mark: () => all.length,
    async waitFor(pattern, options = {}) {
      const { timeoutMs = 20_000, after = 0 } = typeof options === 'number' ? { timeoutMs: options } : options;
      try {
        await until(`${pattern}`, () => pattern.test(all.slice(after)), timeoutMs);
      } catch {
        throw new Error(`Timed out waiting for ${pattern} (exit code ${child.exitCode})\n--- stdout\n${out}\n--- stderr\n${err}`);
      }
    },
    exited,
    async interrupt() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** Runs the CLI to its end in its own process: its exit code and what it printed. */
export async function runCliChild(argv: string[], options: CliOptions = {}): Promise<{ code: number | null; out: string; err: string }> {
  const run = startCliChild(argv, options);
  const code = await run.exited;
  return { code, out: run.out(), err: run.err() };
}

/** The CLI with a profile (`--profile <profile>` first). */
export function startCli(profile: string, argv: string[], options: CliOptions = {}): CliProcess {
  return startCliChild(['--profile', profile, ...argv], { ...options, profile });
}

/** Runs the CLI with a profile to its end: its exit code and what it printed. */
export function runCli(profile: string, argv: string[], options: CliOptions = {}): Promise<{ code: number | null; out: string; err: string }> {
  return runCliChild(['--profile', profile, ...argv], { ...options, profile });
}

/** A profile directory (owned by `owner` when given, so the CLI can run as that user). */
export function profileDir(prefix: string, owner?: { uid: number; gid: number }): string {
  const dir = mkdtempSync(join(tmpdir(), `design-sync-${prefix}-`));
  if (owner) chownTree(dir, owner);
  return dir;
}

/** Gives a folder and everything in it to `owner` (root only). */
export function chownTree(path: string, owner: { uid: number; gid: number }): void {
  chownSync(path, owner.uid, owner.gid);
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), owner);
}

/** Removes a folder a test made read-only or inaccessible. */
export function removeTree(path: string): void {
  try {
    chmodTree(path);
  } catch {
    // already gone
  }
  rmSync(path, { recursive: true, force: true });
}

function chmodTree(path: string): void {
  if (!lstatSync(path).isDirectory()) return;
  chmodSync(path, 0o755);
  for (const name of readdirSync(path)) chmodTree(join(path, name));
}

/** Whether this process can give a child process a read-only or tiny file system of its own (root with unshare). */
export function canMountPrivately(): boolean {
  if (!IS_ROOT) return false;
  const dir = mkdtempSync(join(tmpdir(), 'design-sync-mount-probe-'));
  try {
    const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `mount -t tmpfs -o ro,size=64k tmpfs ${quote(dir)}`], { stdio: 'ignore' });
    return probe.status === 0;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A shell command that mounts a tmpfs with `options` on `dir` (for CliOptions.inMountNamespace). */
export function mountTmpfs(dir: string, options: string): string {
  return `mount -t tmpfs -o ${options} tmpfs ${quote(dir)}`;
}

/**
 * Output with nothing raw in it: no system error code, no "Error:" prefix, no stack trace. A word after "-" is not a
 * code: a temporary folder's random name in a path ("design-sync-gone-root-ENDILQ") can look like one.
 */
export const RAW_OUTPUT = /(?<!-)\bE[A-Z]{3,}\b|\bError:|\n\s+at .+\(/;

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
