import type { EngineWords } from '../i18n/engine-words';

/** What the window and `design-sync status` show of the upload queue and of sync as a whole. */

export const QUEUE_STATES = ['waiting', 'running', 'done', 'failed', 'attention', 'cancelled'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

export const QUEUE_KINDS = ['upload', 'replace', 'rename', 'delete-remote', 'create-design', 'update-design'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/** Why an item waits for a person: each has one thing to do. */
export const ATTENTION_KINDS = ['confirm-delete', 'confirm-design', 'sign-in', 'invalid-file', 'conflict', 'refused', 'missing-design', 'ready-to-publish'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export interface QueueItemView {
  id: number;
  kind: QueueKind;
  state: QueueState;
  paused: boolean;
  attention: AttentionKind | null;
  /** For failed and attention: what happened and what to do, in English words (the log, --json, older rows). */
  reason: string | null;
  /** The reason's facts, which a front end words in the person's language (engineWordsText); null: show `reason`. */
  reasonWords?: EngineWords | null;
  folder: string | null;
  path: string | null;
  designId: number | null;
  fileKind: 'image' | 'document' | null;
  remoteId: number | null;
  bytesSent: number;
  bytesTotal: number | null;
  attempts: number;
  /** Epoch ms: not before then (backoff, Retry-After). */
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
}

export type SyncRunState =
  /** Watching, nothing to do. */
  | 'idle'
  | 'scanning'
  | 'syncing'
  /** Paused by the user. */
  | 'paused'
  /** Waiting for the service (offline) or for sign-in: resumes by itself. */
  | 'waiting'
  /** Stopped for a reason a person must look at (the folder vanished, the watcher failed…). */
  | 'stopped';

export interface SyncStatusView {
  state: SyncRunState;
  reason: string | null;
  root: string | null;
  queuePaused: boolean;
  /** When a timed pause of the uploads ends by itself (epoch ms), or null (not paused, or until resumed). */
  queuePausedUntil?: number | null;
  lastScanAt: number | null;
  counts: Record<QueueState, number>;
}
