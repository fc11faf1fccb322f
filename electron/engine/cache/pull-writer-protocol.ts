import type { DesignForm, UpsertFlags, UpsertResult } from './design-writes';

/** What the pull's writer thread is asked (pull-writer-worker.ts), one message at a time, answered in order. */
export type WriterRequest =
  /** A page of a listing, as JSON text (cheaper to copy between threads than the parsed objects). */
  | { kind: 'page'; itemsJson: string; form: DesignForm; at: number; flags: UpsertFlags }
  /** The walk ended: the search rows of the designs it added (these ids, written before the handover, too). */
  | { kind: 'end-walk'; unindexed: number[] }
  /** The pull's last write: the search index merged into one segment (after a pull that wrote many rows). */
  | { kind: 'optimize' }
  | { kind: 'close' };

export type WriterReply =
  | { kind: 'ready' }
  | { kind: 'written'; results: UpsertResult[] }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

export interface WriterData {
  databasePath: string;
  /** The better-sqlite3 build the main thread loaded (open-sqlite.ts), for the thread to load too. */
  nativeBinding: string | undefined;
}
