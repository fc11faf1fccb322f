import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from './redact';
import { RotatingFile, type RotatingFileOptions } from './rotating-file';

export type LogLevel = 'info' | 'warn' | 'error';

/** Where one process's engine log goes. */
export interface EngineLogSink {
  /** The file written, or null when the log goes nowhere. */
  readonly file: string | null;
  /** Why the file could not be written the last time, or null. */
  readonly problem: string | null;
  write(level: LogLevel, area: string, message: string, error?: unknown): void;
  /** Keeps what `provider` gives (asked at each write) out of the log. */
  keepOut?(provider: () => Iterable<string | null | undefined>): void;
}

/** The engine log of a profile: `<profile>/logs/engine.log` (rotated as engine.log.1, engine.log.2). */
export function engineLogPath(profileRoot: string): string {
  return join(profileRoot, 'logs', 'engine.log');
}

/** Entries longer than this are cut (a huge error message must not push everything else out of the log). */
const MAX_ENTRY_CHARS = 16_000;

function errorCode(error: Error): string {
  const { code, errno, syscall, path } = error as NodeJS.ErrnoException & { code?: unknown };
  const parts = [
    typeof code === 'string' || typeof code === 'number' ? `code ${code}` : null,
    typeof errno === 'number' && typeof code !== 'string' ? `errno ${errno}` : null,
    typeof syscall === 'string' ? `syscall ${syscall}` : null,
    typeof path === 'string' && !error.message.includes(path) ? `path ${path}` : null,
  ].filter((part) => part !== null);
  return parts.length ? ` [${parts.join(', ')}]` : '';
}

/**
 * An error as the log keeps it: its name and message, its code (errno, SQLite's, the service problem's kind), its
 * stack (indented lines), and its causes.
 */
export function describeError(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) {
    if (typeof error === 'string') return error;
    try {
      return JSON.stringify(error) ?? String(error);
    } catch {
      return String(error); // a value JSON cannot write (a cycle, a BigInt): its plain form is what there is
    }
  }
  const problem = (error as { problem?: { kind?: unknown } }).problem;
  const kind = problem && typeof problem.kind === 'string' ? ` [problem ${problem.kind}]` : '';
  const head = `${error.name}: ${error.message}${errorCode(error)}${kind}`;
  const stack = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).map((line) => `    ${line.trim()}`);
  const cause = (error as { cause?: unknown }).cause;
  const causeText = cause !== undefined && depth < 3 ? [`  caused by ${describeError(cause, depth + 1)}`] : [];
  return [head, ...stack, ...causeText].join('\n');
}

/** One entry: `<ISO time> <LEVEL> <area>: <message>[: <error>]`, an error's stack and causes on indented lines below. */
export function formatEntry(at: Date, level: LogLevel, area: string, message: string, error?: unknown): string {
  const text = error === undefined ? message : `${message}: ${describeError(error)}`;
  const entry = `${at.toISOString()} ${level.toUpperCase().padEnd(5)} ${area}: ${text}`;
  const cut = entry.length > MAX_ENTRY_CHARS ? `${entry.slice(0, MAX_ENTRY_CHARS)}…` : entry;
  return `${cut.replace(/\r?\n/g, '\n  ')}\n`;
}

export interface FileLogOptions extends RotatingFileOptions {
  /** The secrets to keep out of the log, asked at each write (the session's current token). */
  secrets?: () => Iterable<string | null | undefined>;
  now?: () => Date;
  /** Told once when the file cannot be written (default: one line on standard error). */
  onUnwritable?: (problem: string) => void;
}

/**
 * The engine log written to a rotating file, every entry redacted: the secrets given (every token the session ever
 * had in this process, not only the current one) and any `auth_token=` value. Writing never throws: a log that
 * cannot be written is said once (standard error) and kept as `problem`; each later entry tries again.
 */
export class FileLog implements EngineLogSink {
  private readonly out: RotatingFile;
  private readonly seen = new Set<string>();
  private readonly providers: Array<() => Iterable<string | null | undefined>> = [];
  private failure: string | null = null;
  private told = false;

  constructor(readonly file: string, private readonly options: FileLogOptions = {}) {
    this.out = new RotatingFile(file, options);
  }

  get problem(): string | null {
    return this.failure;
  }

  /** Every file of the log, newest first. */
  paths(): string[] {
    return this.out.paths();
  }

  /** Keeps what `provider` gives (asked at each write) out of the log from now on. */
  keepOut(provider: () => Iterable<string | null | undefined>): void {
    this.providers.push(provider);
    this.secrets();
  }

  /** The secrets known so far (remembered: a token replaced or refused since is still kept out). */
  secrets(): string[] {
    for (const provider of this.options.secrets ? [this.options.secrets, ...this.providers] : this.providers) {
      for (const secret of provider()) if (secret) this.seen.add(secret);
    }
    return [...this.seen];
  }

  redact(text: string): string {
    return redactSecrets(text, this.secrets());
  }

  write(level: LogLevel, area: string, message: string, error?: unknown): void {
    const entry = this.redact(formatEntry(this.options.now?.() ?? new Date(), level, area, message, error));
    try {
      this.out.append(entry);
      this.failure = null;
    } catch (failure) {
      this.failure = `The engine log cannot be written at ${this.file}: ${(failure as Error).message}`;
      if (!this.told) {
        this.told = true;
        (this.options.onUnwritable ?? ((problem) => process.stderr.write(`design-sync: ${problem}; going on without it.\n`)))(this.failure);
      }
    }
  }
}

const NO_LOG: EngineLogSink = { file: null, problem: null, write: () => {} };

/**
 * The process's engine log: every layer of the engine reaches it as `engineLog.warn(area, message, error)`, so that
 * no caught error goes unrecorded. openEngine points it at the profile's file; until then (and in tests that open no
 * engine) it goes nowhere. One engine per process is the rule in the app; when a process opens several (tests), the
 * last opened has the log.
 */
class EngineLog {
  private sink: EngineLogSink = NO_LOG;

  /** Makes `sink` the process's log; returns a function that puts back the one before, if `sink` is still in use. */
  use(sink: EngineLogSink): () => void {
    const before = this.sink;
    this.sink = sink;
    return () => {
      if (this.sink === sink) this.sink = before;
    };
  }

  /** Keeps these secrets (asked at each write: a session's token, the window host's secret) out of the log. */
  keepOut(provider: () => Iterable<string | null | undefined>): void {
    this.sink.keepOut?.(provider);
  }

  /** The file written, or null. */
  get file(): string | null {
    return this.sink.file;
  }

  /** Why the file cannot be written, or null. */
  get problem(): string | null {
    return this.sink.problem;
  }

  info(area: string, message: string, error?: unknown): void {
    this.sink.write('info', area, message, error);
  }

  /** Something went wrong and the engine went on (a caught error no one is shown). */
  warn(area: string, message: string, error?: unknown): void {
    this.sink.write('warn', area, message, error);
  }

  /** Something failed that should not have (an internal problem, a damaged database). */
  error(area: string, message: string, error?: unknown): void {
    this.sink.write('error', area, message, error);
  }
}

export const engineLog = new EngineLog();

/**
 * The last `count` lines of a log file (read from its end, so a full 1 MiB file costs one small read); [] when there
 * is no file yet.
 */
export function readLogTail(path: string, count = 20, maxBytes = 64 * 1024): string[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    // No log yet, or no folder for it (a file in its place: said by whoever shows the tail).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  try {
    const size = statSync(path).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (length < size) lines.shift(); // the first, probably cut, line
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.slice(-count);
  } finally {
    closeSync(fd);
  }
}

/**
 * A `.catch()` handler for removing or reading something that may already be gone: a missing file (ENOENT) is what
 * was wanted or expected; anything else is logged as a warning.
 */
export function warnUnlessMissing(area: string, message: string): (error: unknown) => void {
  return (error) => {
    if ((error as NodeJS.ErrnoException | null)?.code !== 'ENOENT') engineLog.warn(area, message, error);
  };
}
