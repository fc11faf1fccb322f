import type { AttentionKind, QueueKind } from '../../../shared';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { absolutePath, currentVersion, fileNameOf, folderOf, refusalOf, sameVersion, sha1OfFile, type FileVersion } from './file-version';
import type { JobItem } from './job-items';
import type { JobBaseFiles, JobDesignFolders, JobStore } from './job-store';
import type { QueueItem, Reason, SentAttempt } from './queue-item';
import { said, type Said } from './said';

/** What a job works with: the service, what it may change of the queue, the last synced state, the folder on disk. */
export interface JobContext {
  client: ServiceClient;
  store: JobStore;
  baseFiles: JobBaseFiles;
  designFolders: JobDesignFolders;
  /** The sync folder on disk (throws NoSyncFolderError when none is set). */
  root(): string;
  /** Why the sync folder is not there (missing, not a folder), or null when it is. */
  rootProblem(): Promise<string | null>;
  /** Aborted when the runner stops, or a person pauses or cancels the item. */
  signal: AbortSignal;
  now(): number;
  /** How long a file must stay unchanged before a version other than the queued one is sent. */
  settleMs: number;
  /**
   * Stores what is about to be sent, durably, before the request goes out (see SentAttempt). False when the
   * item is no longer running (cancelled a moment ago): then nothing may be sent. `untilLastBytes`: a streamed
   * file's attempt, made durable by confirmSending before the body is complete (QueueItems.markSending).
   */
  sending(sent: SentAttempt, options?: { untilLastBytes?: boolean }): boolean;
  /** The streamed file was read whole: its SHA-1 joins the attempt, durably (QueueItems.confirmSending). */
  confirmSending(sha1: string): Promise<boolean>;
  /** Bytes sent so far (stored at most a few times a second). */
  progress(sentBytes: number, totalBytes: number): void;
  log(level: 'info' | 'warning' | 'error', line: Said, path?: string | null): void;
}

/** How an attempt ends, short of a problem with the service (those are ServiceErrors, mapped by problem-outcome.ts). */
export type JobResult =
  /** `record` writes the last synced state; it runs in the same transaction that marks the item done. */
  | { outcome: 'done'; message: Said; record?: () => void }
  /** Not now: back in line at `at`, the attempt not counted (e.g. the file is still being written). */
  | { outcome: 'waiting'; at: number; reason: Said | null }
  | { outcome: 'cancelled'; reason: Said }
  | { outcome: 'attention'; attention: AttentionKind; reason: Said }
  | { outcome: 'failed'; reason: Said }
  /**
   * The sync folder itself is gone (disk unmounted, folder moved): the item waits, and the whole queue is held
   * (sync_status 'stopped', as the folder side does) until the folder side finds the folder back. Never a
   * cancellation: a missing folder is not a deleted file.
   */
  | { outcome: 'folder-missing'; reason: Reason };

/** One kind of queue item's work; it runs only on an item whose payload parsed (see job-payloads.ts). */
export interface Job<K extends QueueKind = QueueKind> {
  kind: K;
  /** The attention a refusal of the service (422) calls for. */
  validationAttention: AttentionKind;
  run(item: JobItem<K>, ctx: JobContext): Promise<JobResult>;
  /**
   * The item's last attempt may have reached the service (its answer was lost, or the process died): looks on
   * the service for what it made. A result when found (done, usually), null when it is not there: send again.
   */
  reconcile(item: JobItem<K>, sent: SentAttempt, ctx: JobContext): Promise<JobResult | null>;
  /** What a 404 means for this kind, once the design itself is known to be there; null: fail with the service's words. */
  notFound?(item: JobItem<K>, ctx: JobContext): Promise<JobResult | null>;
}

export class NoSyncFolderError extends Error {
  constructor() {
    super('No sync folder is set up: choose one first.');
    this.name = 'NoSyncFolderError';
  }
}

/** Clocks of the service and of this computer may differ a little: what the service made counts from this much before we sent. */
export const CLOCK_SKEW_MS = 5_000;

export function createdSince(timestamp: string, sentAt: number): boolean {
  const at = Date.parse(timestamp);
  return Number.isFinite(at) && at >= sentAt - CLOCK_SKEW_MS;
}

export function pathOf(item: QueueItem): string {
  if (!item.path) throw new Error(`Queue item ${item.id} (${item.kind}) has no path`);
  return item.path;
}

export function fileKindOf(item: QueueItem): 'image' | 'document' {
  if (!item.fileKind) throw new Error(`Queue item ${item.id} (${item.kind}) does not say whether it is an image or a document`);
  return item.fileKind;
}

/** The design the item's folder stands for: the item's own, or the one its folder was linked to since. */
export function designIdOf(item: QueueItem, ctx: JobContext): number | null {
  if (item.designId !== null) return item.designId;
  const folder = item.folder ?? (item.path ? folderOf(item.path) : null);
  return folder ? (ctx.designFolders.get(folder)?.designId ?? null) : null;
}

export const NO_DESIGN_YET = (folder: string): JobResult => ({
  outcome: 'attention', attention: 'missing-design',
  reason: said('queue.reason.folderNotLinked', { folder }),
});

/** After a 404: the design gone altogether calls for a person (missing-design); null when the design is still there. */
export async function designGone(item: QueueItem, ctx: JobContext): Promise<JobResult | null> {
  const designId = designIdOf(item, ctx);
  if (designId === null) return NO_DESIGN_YET(item.folder ?? folderOf(pathOf(item)));
  try {
    await ctx.client.getDesign(designId, ctx.signal);
    return null;
  } catch (error) {
    if (!isServiceError(error, 'not-found')) throw error;
    const folder = item.folder ?? (item.path ? folderOf(item.path) : String(designId));
    return {
      outcome: 'attention', attention: 'missing-design',
      reason: said('queue.reason.folderDesignGone', { folder }),
    };
  }
}

/** A local file ready to be sent: the version that will go out and, when it was asked for or known, its hash. */
export interface PreparedFile {
  path: string;
  fileName: string;
  version: FileVersion;
  /** Known from the queue, or read because `needsSha1` said so; otherwise it is taken while the file is sent. */
  sha1: string | null;
}

/**
 * Checks the file an upload or replace is about to send: gone → cancelled; refused by the shared rules →
 * attention 'refused' (never sent); another version than the queued one → waits until it has stayed unchanged
 * for settleMs, then that version is sent (the folder side usually re-queues it first). Hashes it first only when
 * the hash is not known and `needsSha1(version)` (the job compares it with the last synced one before sending);
 * otherwise the hash is taken from the bytes sent (streamed-file.ts), so the file is read once.
 */
export async function prepareFile(
  item: QueueItem, kind: 'image' | 'document', ctx: JobContext, needsSha1: (version: FileVersion) => boolean,
): Promise<PreparedFile | JobResult> {
  const relative = pathOf(item);
  const fileName = fileNameOf(relative);
  const path = absolutePath(ctx.root(), relative);
  const version = await currentVersion(path);
  if (!version) {
    const folderMissing = await ctx.rootProblem();
    if (folderMissing) return { outcome: 'folder-missing', reason: folderMissing };
    return { outcome: 'cancelled', reason: said('queue.reason.removedBeforeSent', { path: relative }) };
  }
  const refusal = await refusalOf(kind, path, fileName);
  if (refusal) return { outcome: 'attention', attention: 'refused', reason: refusal };
  let knownSha1 = item.fileSha1;
  if (item.fileSize !== null && !sameVersion(version, { size: item.fileSize, mtimeMs: item.fileMtimeMs })) {
    const quietFor = ctx.now() - version.mtimeMs;
    if (quietFor >= 0 && quietFor < ctx.settleMs) {
      return { outcome: 'waiting', at: version.mtimeMs + ctx.settleMs, reason: said('queue.reason.stillChanging', { path: relative }) };
    }
    ctx.store.retarget(item.id, { file: { size: version.size, mtimeMs: version.mtimeMs } });
    knownSha1 = null;
  }
  if (knownSha1 !== null || !needsSha1(version)) return { path, fileName, version, sha1: knownSha1 };
  const sha1 = await sha1OfFile(path, ctx.signal);
  const after = await currentVersion(path);
  if (!after || !sameVersion(after, version)) {
    return { outcome: 'waiting', at: ctx.now() + ctx.settleMs, reason: said('queue.reason.stillChanging', { path: relative }) };
  }
  return { path, fileName, version, sha1 };
}

export function isJobResult(value: PreparedFile | JobResult): value is JobResult {
  return 'outcome' in value;
}
