import type { BaseFile } from '../sync-state/base-files';
import type { LocalEntry } from './local-files';
import type { GoneCheck, RemoteFile } from './remote-listing';
import { localNameFor, nameKey, uniqueName } from './sync-names';

/**
 * What the remote pass decides for one design's files, as a pure function of what it read: the service's listing, the
 * last synced state, the local files and the queue's open items. Nothing here reads or writes; `remote-pass.ts`
 * collects these facts and applies the decisions (checking again, right before each, that nothing recorded the file
 * meanwhile).
 */

/** What the local file of a synced file is, compared with the last synced state. */
export type LocalState =
  | { state: 'missing' }
  /** `restat`: the same content under a new size/mtime/inode (recorded when the decision is applied). */
  | { state: 'unchanged'; entry: LocalEntry; restat: boolean }
  | { state: 'changed'; entry: LocalEntry; sha1: string };

/** The facts of one synced file (a base_files row of the design's folder) as the pass read them. */
export interface SyncedFileFacts {
  base: BaseFile;
  /** False when the file was recorded as synced at or after the listing was asked for: the listing cannot judge it. */
  canJudge: boolean;
  /** The service's file of the same id in the listing, null when the listing lacks it. */
  listed: RemoteFile | null;
  /** An item of this path is being sent now. */
  running: boolean;
  /** The path's open item that is not running (waiting or waiting for the person), if any. */
  pendingId: number | null;
  /** The path's latest queue item is a deletion on the service the person turned down. */
  deleteTurnedDown: boolean;
  /** For a file the listing lacks: what a read of the item itself said (null when not asked). */
  gone: GoneCheck | null;
  /** The local file (null when it was not looked at: being sent, not judged, not confirmed gone). */
  local: LocalState | null;
  /** The service's content's SHA-1: the listing's, or that of the copy fetched to compare (null when unknown). */
  remoteSha: string | null;
}

/** The facts of one file of the service that no synced file is (new there, or made on both sides). */
export interface NewFileFacts {
  file: RemoteFile;
  /** The service's content's SHA-1: the listing's, or that of the copy fetched to compare with a local file of its name. */
  remoteSha: string | null;
}

/** A local file of the folder an untracked file of the service would meet under its name. */
export interface ClashFacts {
  /** Synced (a base_files row at its path). */
  synced: boolean;
  running: boolean;
  pendingId: number | null;
  /** The local file's SHA-1 (null when not read: synced, not a file, or being sent). */
  sha1: string | null;
  entry: LocalEntry;
}

/** The folder's facts for the service's new files: its entries as read, and the clashes' facts by path. */
export interface FolderFacts {
  folder: string;
  entries: readonly Pick<LocalEntry, 'name' | 'type'>[];
  clashes: ReadonlyMap<string, ClashFacts>;
}

/** Why a file is left for a later pass (counted as skipped). */
export type LeaveReason =
  /** Sent or brought after the listing was asked for. */
  | 'listed-before-synced'
  /** Being sent now: its upload records it. */
  | 'being-sent'
  /** Missing from the listing, but a read of it says the service still has it. */
  | 'still-on-service'
  /** Missing from the listing, and a read of it could not tell. */
  | 'not-known-gone';

interface OfSynced {
  base: BaseFile;
  /** The same content under a new size/mtime/inode: recorded first. */
  restat?: LocalEntry;
}

export type RemoteDecision =
  | { type: 'leave'; path: string; reason: LeaveReason }
  /** Nothing changed but the local file's size/mtime/inode (same content): recorded. */
  | ({ type: 'restat'; restat: LocalEntry } & OfSynced)
  /** Deleted here, kept on the service (the person turned its deletion down): brought back. */
  | ({ type: 'restore'; file: RemoteFile } & OfSynced)
  /** Deleted here, changed on the service: the new version is brought back (its pending deletion cancelled). */
  | ({ type: 'bring-back'; file: RemoteFile; pendingId: number | null } & OfSynced)
  /**
   * Only the service's name or time moved (same content): recorded; a rename is followed here while the local file is
   * unchanged (`local`), and only noted for a missing one.
   */
  | ({ type: 'metadata'; file: RemoteFile; local: LocalState['state'] } & OfSynced)
  /** Changed on the service, unchanged here: the local file is replaced (and renamed when the service renamed it). */
  | ({ type: 'replace'; file: RemoteFile } & OfSynced)
  /** Changed the same way on both sides: the local file is recorded as the service's, nothing sent. */
  | ({ type: 'adopt-synced'; file: RemoteFile; entry: LocalEntry; sha1: string; pendingId: number | null } & OfSynced)
  /** Changed on both sides: the local version kept as a conflict copy, the service's takes the name. */
  | ({ type: 'conflict-synced'; file: RemoteFile; pendingId: number | null } & OfSynced)
  /** Deleted on both sides: its record goes. */
  | ({ type: 'forget'; pendingId: number | null } & OfSynced)
  /** Deleted on the service, unchanged here: the local file goes to the trash. */
  | ({ type: 'trash'; pendingId: number | null } & OfSynced)
  /** Deleted on the service, changed here: kept, and offered to be uploaded again as a new file (waits for the person). */
  | ({ type: 'offer-again'; entry: LocalEntry; sha1: string } & OfSynced)
  /** A new file of the service: downloaded under `path` (its name, or a free one beside a local file of that name). */
  | { type: 'download'; file: RemoteFile; path: string }
  /** A file of the service with the same content as an unsynced local file of its name: linked, nothing sent. */
  | { type: 'adopt-new'; file: RemoteFile; path: string; entry: LocalEntry; sha1: string; pendingId: number | null }
  /** A file of the service and an unsynced local file of its name, different: the local one kept as a conflict copy. */
  | { type: 'conflict-new'; file: RemoteFile; path: string; pendingId: number | null };

/** The decision for one synced file, or null when there is nothing to do. */
export function decideSyncedFile(facts: SyncedFileFacts): RemoteDecision | null {
  const { base, listed: file, local } = facts;
  const path = base.path;
  if (!facts.canJudge) return { type: 'leave', path, reason: 'listed-before-synced' };
  if (facts.running) return { type: 'leave', path, reason: 'being-sent' };
  const restat = local?.state === 'unchanged' && local.restat ? { restat: local.entry } : {};
  if (!file) {
    if (facts.gone !== 'gone' || !local) return { type: 'leave', path, reason: facts.gone === 'still-there' ? 'still-on-service' : 'not-known-gone' };
    if (local.state === 'missing') return { type: 'forget', base, pendingId: facts.pendingId };
    if (local.state === 'unchanged') return { type: 'trash', base, pendingId: facts.pendingId, ...restat };
    return { type: 'offer-again', base, entry: local.entry, sha1: local.sha1 };
  }
  if (!local) return null;
  if (file.updatedAt === base.remoteUpdatedAt && file.name === base.remoteName) {
    if (local.state === 'missing' && facts.deleteTurnedDown) return { type: 'restore', base, file };
    return local.state === 'unchanged' && local.restat ? { type: 'restat', base, restat: local.entry } : null;
  }
  const contentChanged = facts.remoteSha !== null && facts.remoteSha !== base.sha1;
  if (local.state === 'missing') {
    return contentChanged ? { type: 'bring-back', base, file, pendingId: facts.pendingId } : { type: 'metadata', base, file, local: 'missing' };
  }
  if (!contentChanged) return { type: 'metadata', base, file, local: local.state, ...restat };
  if (local.state === 'unchanged') return { type: 'replace', base, file, ...restat };
  if (local.sha1 === facts.remoteSha) return { type: 'adopt-synced', base, file, entry: local.entry, sha1: local.sha1, pendingId: facts.pendingId };
  return { type: 'conflict-synced', base, file, pendingId: facts.pendingId };
}

/** The decisions for a design folder's synced files, in their order: at most one each. */
export function decideSyncedFiles(facts: readonly SyncedFileFacts[]): RemoteDecision[] {
  return facts.flatMap((one) => decideSyncedFile(one) ?? []);
}

/**
 * The decisions for the service's files no synced file is, in the listing's order: each is downloaded under its name,
 * or beside a local file of that name under a free one, or meets the unsynced local file of its name (linked when the
 * same, else both kept). A name one of them takes is taken for those after it.
 */
export function decideNewFiles(folder: FolderFacts, files: readonly NewFileFacts[]): RemoteDecision[] {
  const claimed = new Set<string>();
  const onDisk = new Set(folder.entries.map((entry) => nameKey(entry.name)));
  const taken = (key: string) => onDisk.has(key) || claimed.has(key);
  const decisions: RemoteDecision[] = [];
  for (const { file, remoteSha } of files) {
    const name = localNameFor(file.kind, file);
    const key = nameKey(name);
    const clashEntry = folder.entries.find((entry) => nameKey(entry.name) === key) ?? null;
    const clashPath = clashEntry ? `${folder.folder}/${clashEntry.name}` : null;
    const clash = clashPath ? folder.clashes.get(clashPath) ?? null : null;
    if (clashEntry && clash && !clash.synced && clashEntry.type === 'file' && !claimed.has(key)) {
      if (clash.running) {
        // Probably this very file being uploaded: its upload records it.
        decisions.push({ type: 'leave', path: clashPath!, reason: 'being-sent' });
        continue;
      }
      claimed.add(key);
      if (clash.sha1 !== null && remoteSha === clash.sha1) {
        decisions.push({ type: 'adopt-new', file, path: clashPath!, entry: clash.entry, sha1: clash.sha1, pendingId: clash.pendingId });
      } else {
        decisions.push({ type: 'conflict-new', file, path: clashPath!, pendingId: clash.pendingId });
      }
      continue;
    }
    const target = taken(key) ? uniqueName(name, taken, true) : name;
    claimed.add(nameKey(target));
    decisions.push({ type: 'download', file, path: `${folder.folder}/${target}` });
  }
  return decisions;
}

/** The path a decision is about. */
export function decisionPath(decision: RemoteDecision): string {
  return 'base' in decision ? decision.base.path : decision.path;
}
