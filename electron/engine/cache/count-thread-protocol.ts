import type { LicenseCode } from '../../../shared';

/** What the exact-count thread (count-thread-worker.ts) is asked, one count at a time, and what it answers. */
export type CountRequest = { kind: 'count'; query: string; licenses: readonly LicenseCode[] };

export type CountReply =
  | { kind: 'ready' }
  | { kind: 'counted'; total: number }
  | { kind: 'failed'; message: string };
