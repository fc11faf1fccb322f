import type { OwnFileCounts, OwnFolderState } from '../../../shared';
import type { ReadableDB } from '../cache/cache-database';
import { prepared } from '../cache/prepared';
import type { QueueItem } from '../queue/queue-item';
import type { BaseFile } from '../sync-state/base-files';

/** What My designs says of a design's folder: its state, how many changes are on their way, its files, its last sync. */
export interface OwnFolderFacts {
  folderState: OwnFolderState;
  /** File changes of its folder being sent or waiting to be (what "Uploading 2" counts). */
  uploading: number;
  /** Items of it that wait for the person (a conflict, a deletion to confirm, a refused file…). */
  needsYou: number;
  files: OwnFileCounts;
  /** When its folder was last found in step (a file synced, or a scan that left nothing of it to send), or null. */
  lastSyncedAt: number | null;
}

const FILE_KINDS = new Set(['upload', 'replace', 'rename', 'delete-remote']);

function folderStateOf(items: readonly QueueItem[], folder: string | null, uploading: number): OwnFolderState {
  if (items.some((item) => item.state === 'attention' && item.attention === 'conflict')) return 'conflict';
  if (items.some((item) => item.state === 'attention')) return 'waiting-for-you';
  if (items.some((item) => item.state === 'failed')) return 'failed';
  if (uploading > 0) return 'uploading';
  if (items.length > 0) return 'sending';
  return folder !== null ? 'in-step' : 'no-folder';
}

/** The ids of a design's images or documents the cache knows of (its lists as the service last gave them). */
function cachedIds(reader: ReadableDB, table: 'images' | 'documents', designId: number): number[] {
  return (prepared(reader, `SELECT id FROM ${table} WHERE design_id = ?`).all(designId) as { id: number }[]).map((row) => row.id);
}

/** Its files on the service: those the cache lists and those its folder synced since (the cache may not have them yet). */
function fileCounts(reader: ReadableDB, designId: number, synced: readonly BaseFile[]): OwnFileCounts {
  const count = (kind: 'image' | 'document', table: 'images' | 'documents') =>
    new Set([...cachedIds(reader, table, designId), ...synced.filter((file) => file.kind === kind).map((file) => file.remoteId)]).size;
  return { images: count('image', 'images'), documents: count('document', 'documents') };
}

/**
 * The folder facts of one design, from its open queue items, the files its folder synced and the sync folder's last
 * scan (`lastScanAt`, epoch ms: a scan that left nothing of the folder to send found it in step then).
 */
export function ownFolderFacts(reader: ReadableDB, designId: number, folder: string | null, openItems: readonly QueueItem[], synced: readonly BaseFile[], lastScanAt: number | null): OwnFolderFacts {
  const uploading = openItems.filter((item) => FILE_KINDS.has(item.kind) && (item.state === 'running' || item.state === 'waiting')).length;
  const folderState = folderStateOf(openItems, folder, uploading);
  const times = [...synced.map((file) => file.syncedAt), ...(folderState === 'in-step' && lastScanAt ? [lastScanAt] : [])];
  const lastSyncedAt = folder !== null && times.length > 0 ? Math.max(...times) : null;
  return {
    folderState,
    uploading,
    needsYou: openItems.filter((item) => item.state === 'attention').length,
    files: fileCounts(reader, designId, synced),
    lastSyncedAt,
  };
}
