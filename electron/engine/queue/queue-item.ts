import type { AttentionKind, QueueItemView, QueueKind, QueueState, SyncStatusView } from '../../../shared';
import type { PayloadOf } from './job-payloads';
import { storedWords, untranslated, type Said } from './said';

/** What the durable queue holds (queue_items rows), what it is told, and what it says (see QueueItems). */

export interface QueueRow {
  id: number;
  kind: QueueKind;
  state: QueueState;
  paused: number;
  attention: AttentionKind | null;
  reason: string | null;
  /** The reason's facts (JSON EngineWords), which a front end words in the person's language; NULL for none. */
  reason_words: string | null;
  folder: string | null;
  path: string | null;
  design_id: number | null;
  file_kind: 'image' | 'document' | null;
  remote_id: number | null;
  payload: string;
  bytes_sent: number;
  bytes_total: number | null;
  attempts: number;
  next_attempt_at: number;
  started_at: number | null;
  file_size: number | null;
  file_mtime_ms: number | null;
  file_sha1: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  sent_at: number | null;
  sent_name: string | null;
  sent_sha1: string | null;
  sent_size: number | null;
  sent_mtime_ms: number | null;
  sent_inode: string | null;
}

/**
 * What an attempt sent (or is sending): stored before the request goes out, cleared once the answer is known.
 * An item that still has one when it comes up again may have been applied by the service: it is reconciled first.
 */
export interface SentAttempt {
  /** Epoch ms when the request started. */
  at: number;
  /** The name the service was given (file name, new name, design name). */
  name: string | null;
  /** The content sent (hex SHA-1): documents are recognised by it (the service's modelhash). */
  sha1: string | null;
  size: number | null;
  mtimeMs: number | null;
  /** "dev:ino" of the file sent. */
  inode: string | null;
}

/** How the runner ends an attempt of a running item (see QueueItems.settle). */
export type Settlement =
  | {
      state: 'waiting';
      /** Not before then. */
      at: number;
      reason: Reason | null;
      /** False for what is not the item's fault (offline, rate limit, stop): the attempt is not counted. */
      countAttempt: boolean;
      /** 'keep' when the service may have applied what was sent (reconcile before sending again). */
      sent: 'keep' | 'clear';
    }
  | { state: 'failed'; reason: Reason }
  | { state: 'attention'; attention: AttentionKind; reason: Reason }
  | { state: 'cancelled'; reason: Reason };

/**
 * Why an item is as it is: a sentence of ours (its facts and English, see said.ts), or text that has no words of ours
 * (the service's own message), kept as it is.
 */
export type Reason = Said | string;

/** A reason as a sentence (text of no words of ours stays as it is). */
export const saidOf = (reason: Reason): Said => (typeof reason === 'string' ? untranslated(reason) : reason);

/** The English of a reason (for the log, and words that hold it as it is). */
export const reasonText = (reason: Reason): string => (typeof reason === 'string' ? reason : reason.text);

/** A queue item with what the runner needs beyond the view: its payload and the file version it is about. */
export interface QueueItem extends QueueItemView {
  /** As stored; its kind's schema checks it before a job runs (job-payloads.ts). */
  payload: Record<string, unknown>;
  /** Set when the stored payload is not a JSON object at all (a damaged row): the item fails before its job runs. */
  payloadProblem?: string;
  startedAt: number | null;
  fileSize: number | null;
  fileMtimeMs: number | null;
  fileSha1: string | null;
  /** Set while an attempt's outcome is unknown (see SentAttempt). */
  sent: SentAttempt | null;
}

interface NewItemFields {
  folder?: string | null;
  path?: string | null;
  designId?: number | null;
  fileKind?: 'image' | 'document' | null;
  remoteId?: number | null;
  file?: { size: number; mtimeMs: number; sha1?: string | null } | null;
  /** Starts waiting for a person instead of for its turn (e.g. confirm-delete). */
  attention?: { kind: AttentionKind; reason: Reason } | null;
}

/** A change to queue, with the payload its kind takes (job-payloads.ts). */
export type NewQueueItem = { [K in QueueKind]: NewItemFields & { kind: K; payload?: PayloadOf<K> } }[QueueKind];

/** A queue_items row as the runner and the window read it. */
export function toItem(row: QueueRow): QueueItem {
  return {
    id: row.id, kind: row.kind, state: row.state, paused: row.paused === 1, attention: row.attention, reason: row.reason,
    reasonWords: storedWords(row.reason_words, `queue item ${row.id}`),
    folder: row.folder, path: row.path, designId: row.design_id, fileKind: row.file_kind, remoteId: row.remote_id,
    bytesSent: row.bytes_sent, bytesTotal: row.bytes_total, attempts: row.attempts, nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at, updatedAt: row.updated_at,
    ...storedPayload(row.payload), startedAt: row.started_at,
    fileSize: row.file_size, fileMtimeMs: row.file_mtime_ms, fileSha1: row.file_sha1,
    sent: row.sent_at === null ? null : {
      at: row.sent_at, name: row.sent_name, sha1: row.sent_sha1, size: row.sent_size, mtimeMs: row.sent_mtime_ms, inode: row.sent_inode,
    },
  };
}

/** A row's payload; one that is not a JSON object is kept out of the way, with why (never a throw while listing). */
function storedPayload(text: string): { payload: Record<string, unknown>; payloadProblem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { payload: {}, payloadProblem: 'not readable, damaged' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { payload: {}, payloadProblem: 'a set of fields expected' };
  return { payload: value as Record<string, unknown> };
}

/** Forgets what an attempt sent (its outcome is known). */
export const CLEAR_SENT = 'sent_at = NULL, sent_name = NULL, sent_sha1 = NULL, sent_size = NULL, sent_mtime_ms = NULL, sent_inode = NULL';

export type { ActivityEntry } from './activity-log';

/** Nothing leaves the queue now: paused by a person, or sync stopped for a reason one must look at (the folder vanished…). */
export function heldBack(status: SyncStatusView): boolean {
  return status.queuePaused || status.state === 'stopped';
}

export type QueueEvent = { type: 'item'; item: QueueItemView } | { type: 'status'; status: SyncStatusView };
