import type { QueueStore } from '../queue/queue-store';
import type { QueueItem } from '../queue/queue-item';
import type { BaseFiles } from '../sync-state/base-files';
import type { DesignFolders } from '../sync-state/design-folders';
import type { HeldBack } from '../sync-state/held-back';
import type { TrashFile } from './local-files';
import type { SyncDatabase } from '../sync-state/sync-database';
import type { SyncFolder } from '../sync-state/sync-root';
import type { Said } from '../queue/said';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import type { StopReason } from './stop-reason';

/** What the sync engine tells the window (and the benchmarks, and tests). */
export type SyncEvent =
  /** A new or changed file kept its size and mtime for settleMs: it may be sent. */
  | { type: 'settled'; path: string; size: number; mtimeMs: number }
  /** A file is still being written: it is looked at again later. */
  | { type: 'unsettled'; path: string }
  | { type: 'enqueued'; item: QueueItem }
  | { type: 'downloaded'; path: string; replaced: boolean }
  | { type: 'renamed-local'; fromPath: string; toPath: string }
  | { type: 'trashed'; path: string; where: string }
  | { type: 'conflict'; path: string; copyPath: string }
  | { type: 'folder-created'; folder: string; designId: number }
  | { type: 'scan'; summary: ScanSummary }
  | { type: 'remote'; summary: RemoteSummary }
  /** Sync stopped (folder missing, many files gone): nothing is sent or written until it is resolved. */
  | { type: 'stopped'; reason: string; words?: EngineWords | null }
  | { type: 'resumed' }
  /** Something a person should know that does not stop sync (watcher limit, sign-in lost, a refused file…). */
  /** `message` is its English; `words` its facts, which a front end words in the person's language (null: none). */
  | { type: 'warning'; message: string; words?: EngineWords | null; path?: string };

export interface ScanSummary {
  folders: number;
  files: number;
  unchanged: number;
  /** Changed on disk but with the same content: only the recorded mtime moved. */
  refreshed: number;
  enqueued: number;
  /** Still being written when the scan ended: looked at again later. */
  unsettled: string[];
  /** Skipped because an item of the same file is being sent: looked at again when it is done. */
  deferred: string[];
  proposedDesigns: string[];
  /** Files and folders never sent (the built-in list, an ignore file), found by this scan. */
  heldBack: number;
  durationMs: number;
  stopped: string | null;
}

export interface RemoteSummary {
  designs: number;
  downloaded: number;
  replaced: number;
  renamed: number;
  trashed: number;
  conflicts: number;
  adopted: number;
  skipped: number;
  /** What could not be brought from the service, as facts and in English. */
  warnings: Said[];
  durationMs: number;
}

/** What the scanner, the remote pass and the engine share. */
export interface SyncContext {
  db: SyncDatabase;
  queue: QueueStore;
  base: BaseFiles;
  folders: DesignFolders;
  root: SyncFolder;
  /** What scans held back and why (written only by the scan). */
  heldBack: HeldBack;
  /** The published design's name when a new file of it waits for the person before it is sent, else null. */
  reviewBeforePublishing(designId: number): string | null;
  settleMs: number;
  /** In a one-shot pass: how long to wait for a file being written before leaving it for the next pass. */
  maxSettleWaitMs: number;
  /** How long an empty file must stay empty (by its time) before it is sent: tools empty a file before writing it. */
  emptySettleMs: number;
  trash: TrashFile;
  now: () => number;
  emit(event: SyncEvent): void;
  /** Logs to the activity table (and as an event for warnings). */
  log(level: 'info' | 'warning' | 'error', line: Said, path?: string | null): void;
  /** Logs a warning only the first time it comes up in this run (a file at the top level, a subfolder…). */
  reportOnce(line: Said | string, path?: string | null): void;
  /** Stops sync with a reason a person must look at (its facts with it, when it has them: a failed RootCheck has). */
  stop(reason: StopReason | string): void;
  /** False once stop() was called and until the cause is gone. */
  running(): boolean;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
