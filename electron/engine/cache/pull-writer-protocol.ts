import type { BulkFillEnd } from './bulk-fill';
import type { DesignForm, UpsertFlags, UpsertResult } from './design-writes';
import type { SearchRowsTiming } from './pull-types';

/** What the pull's writer thread is asked (pull-writer-worker.ts), one message at a time, answered in order. */
export type WriterRequest =
  /**
   * A page of a listing, as JSON text (cheaper to copy between threads than the parsed objects; its designs as the
   * service wrote them when the walk had their texts, which the thread keeps as they are); `remakeIndex`: then
   * one of the indexes a bulk fill set aside is made again (PullWriter spreads them over the walk's last pages).
   */
  | { kind: 'page'; itemsJson: string; form: DesignForm; at: number; flags: UpsertFlags; remakeIndex: boolean }
  /** The walk ended: the search backlog's rows written (unless left behind the pull), and, when it was one, its bulk fill undone. */
  | { kind: 'end-walk'; writeSearchRows: boolean; bulkFill: BulkFillEnd }
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
  /** Whether the thread writes the search backlog's rows (as it idles, and when a walk ends) or leaves them behind the pull. */
  searchRows: SearchRowsTiming;
}

/**
 * How many WAL pages a pull lets pile up before a commit checkpoints them (SQLite's default is 1000): checkpointing
 * at every 1000 pages rewrote the same index pages again and again, while never checkpointing let the WAL of a
 * million-design pull reach 30 GB. 32,768 pages (128 MiB of 4 KiB pages) keeps the WAL bounded and checkpoints rare.
 */
export const PULL_WAL_CHECKPOINT_PAGES = 32_768;

/**
 * How many designs a pull writes on the main thread between commits: each commit writes every page it changed to the
 * WAL, and a page of designs touches pages of every index (at 10,000 designs, a commit per page of 100 wrote 28,180
 * WAL pages in 197 ms, a commit per 1,000 designs 8,644 in 50 ms).
 */
export const PULL_COMMIT_EVERY_DESIGNS = 1_000;

/**
 * How long the pull's open transaction may wait for the next page before it is committed: while the walk waits on the
 * network, another connection (another process on this profile) may need to write. Pages that follow each other
 * sooner (a fast link) still share one commit.
 */
export const PULL_COMMIT_IDLE_MS = 50;
