import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../support/until';

const REPO = join(import.meta.dirname, '../../..');

/** Some machines run the tests as root, where chmod stops nobody: permission cases then run the CLI as `nobody`. */
export const IS_ROOT = process.getuid?.() === 0;
export const NOBODY = { uid: 65534, gid: 65534 };

export interface ChildOptions {
  /** Standard input (e.g. a token for `login --with-token`). */
  stdin?: string;
  /** Run as this user (root only). */
  as?: { uid: number; gid: number };
  /** A shell command run first in a mount namespace of the CLI's own (root with unshare), e.g. a read-only mount. */
  mountFirst?: string;
}

export interface CliChild {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Waits until stdout or stderr matches, failing at the deadline with everything printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
  /** Ctrl-C, then the exit code. */
  interrupt(): Promise<number | null>;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The design-sync command as its own process (bin/design-sync.mjs), as a person runs it in another terminal. */
export function startCliChild(argv: string[], options: ChildOptions = {}): CliChild {
  const args = [join(REPO, 'bin/design-sync.mjs'), ...argv];
  const env = { ...process.env, ...(options.as ? { HOME: tmpdir() } : {}) };
  const child = options.mountFirst
    ? spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `${options.mountFirst} && exec ${[process.execPath, ...args].map(quote).join(' ')}`], { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'], ...(options.as ?? {}) });
  child.stdin!.end(options.stdin ?? '');
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    async waitFor(pattern, timeoutMs = 20_000) {
      try {
        await until(`${pattern}`, () => pattern.test(`${out}\n${err}`), timeoutMs);
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

/** Runs the command to its end in its own process: exit code and what it printed. */
export async function runCliChild(argv: string[], options: ChildOptions = {}): Promise<{ code: number | null; out: string; err: string }> {
  const run = startCliChild(argv, options);
  const code = await run.exited;
  return { code, out: run.out(), err: run.err() };
}

/** Whether a child can get a read-only file system of its own here (root, with unshare allowed), for EROFS. */
export function canMountReadOnly(): boolean {
  if (!IS_ROOT) return false;
  const dir = mkdtempSync(join(tmpdir(), 'design-sync-ro-probe-'));
  try {
    return spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `mount -t tmpfs -o ro,size=64k tmpfs ${quote(dir)}`], { stdio: 'ignore' }).status === 0;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The shell command that mounts an empty read-only file system on `dir` (for ChildOptions.mountFirst). */
export const readOnlyMount = (dir: string) => `mount -t tmpfs -o ro,size=64k tmpfs ${quote(dir)}`;

/** Nothing raw in what a person reads: no system error code, no "Error:" prefix, no stack trace. */
export const RAW_OUTPUT = /\bE[A-Z]{3,}\b|\bError:|\n\s+at .+\(/;
