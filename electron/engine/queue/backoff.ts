/**
 * Backoff as Signal Desktop's job queue does it (ts/jobs/JobQueue): factor 1.9 from 190 ms, capped at 15 minutes,
 * here with ±20% jitter so that many clients (or items) coming back at once do not retry in step.
 */
export const BACKOFF = { firstMs: 190, factor: 1.9, maxMs: 15 * 60_000, jitter: 0.2 } as const;

/** The wait before try number `attempt` (1 = the first retry). `random` in [0, 1). */
export function backoffDelay(attempt: number, random: () => number = Math.random, options: Partial<typeof BACKOFF> = {}): number {
  const { firstMs, factor, maxMs, jitter } = { ...BACKOFF, ...options };
  const base = Math.min(maxMs, firstMs * factor ** Math.max(0, attempt - 1));
  return Math.round(Math.min(maxMs, base * (1 - jitter + 2 * jitter * random())));
}
