/**
 * How long a request may take and how much of an answer is read. Every request has four timeouts, each named in the
 * message when it fires (network-problem.ts):
 *  - connect: from asking for a connection to having one (name lookup and TCP; a never-sent request);
 *  - first byte: from the request being sent to the answer's status line and headers;
 *  - idle: between two pieces of the answer's body, while the client waits for them;
 *  - overall: from the start to the last byte of a JSON answer (downloads have none: only the idle timeout).
 * A JSON answer larger than `maxAnswerBytes` is refused while it is read, so memory stays flat whatever the service sends.
 */
export interface Timeouts {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
  /** 0: no overall bound. */
  overallMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 15_000, firstByteMs: 30_000, idleMs: 30_000, overallMs: 120_000 };

/** A JSON answer larger than this is refused while it is read (a listing page of 100 designs is some 100-300 kB). */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Of an error answer's body (4xx, 5xx), only this much is read: its message is near the start. */
export const ERROR_BODY_BYTES = 64 * 1024;

export const DEFAULT_MAX_REDIRECTS = 5;

/** The environment variable that overrides the limits (for a slow link, a test, a support case). */
export const LIMITS_VARIABLE = 'DESIGN_SYNC_HTTP';

export interface LimitOverrides {
  timeouts: Partial<Timeouts>;
  maxAnswerBytes?: number;
  retries?: number;
}

const KEYS: Record<string, (overrides: LimitOverrides, value: number) => void> = {
  connect: (o, v) => (o.timeouts.connectMs = v),
  'first-byte': (o, v) => (o.timeouts.firstByteMs = v),
  idle: (o, v) => (o.timeouts.idleMs = v),
  overall: (o, v) => (o.timeouts.overallMs = v),
  'max-answer-bytes': (o, v) => (o.maxAnswerBytes = v),
  retries: (o, v) => (o.retries = v),
};

/**
 * DESIGN_SYNC_HTTP="connect=15000,first-byte=30000,idle=30000,overall=120000,max-answer-bytes=33554432,retries=4"
 * (times in milliseconds, 0 turns a timeout off). Any subset may be given; it wins over what the code chose, so a
 * person on a slow link can lengthen them without a new build. Entries that are not `name=whole number` are ignored.
 */
export function limitsFromEnvironment(value: string | undefined = process.env[LIMITS_VARIABLE]): LimitOverrides {
  const overrides: LimitOverrides = { timeouts: {} };
  for (const entry of (value ?? '').split(',')) {
    const match = /^\s*([a-z-]+)\s*=\s*(\d+)\s*$/.exec(entry);
    const apply = match ? KEYS[match[1]!] : undefined;
    if (match && apply) apply(overrides, Number(match[2]));
  }
  return overrides;
}

/** 300 ms, 30 s, 2 min: a duration as people say it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6_000) / 10} min`;
}

/** 512 bytes, 40 kB, 32 MiB… sizes as people read them (binary units above a kilobyte). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${Math.round(bytes / (1024 * 102.4)) / 10} MiB`;
  return `${Math.round(bytes / (1024 * 1024 * 102.4)) / 10} GiB`;
}

/** 1,234,567: a count with separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
