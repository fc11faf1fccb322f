/** What the index thread (index-thread-worker.ts) is asked, one index at a time, and what it answers. */
export type IndexRequest = { kind: 'remake-one' } | { kind: 'close' };

export type IndexReply =
  /** `made`: one of the indexes a bulk fill set aside was made again; false when none was left. */
  | { kind: 'remade'; made: boolean }
  | { kind: 'failed'; message: string };
