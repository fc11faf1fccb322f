import type { LicenseCode } from '../../../shared';

/**
 * What the exact-count thread (count-thread-worker.ts) is asked, one at a time, and what it answers: a count, or to
 * read the narrow index through (index-warm-up.ts), answered with the designs it holds.
 */
export type CountRequest = { kind: 'count'; query: string; licenses: readonly LicenseCode[] } | { kind: 'read-index-through' };

export type CountReply =
  | { kind: 'ready' }
  | { kind: 'counted'; total: number }
  | { kind: 'failed'; message: string };
