import { isImageFileName, looksLikeWindowsExecutable } from '../../../shared';
import { isDismissedVersion, type DismissedVersion } from '../queue/dismissed-versions';
import type { NewQueueItem, QueueItem } from '../queue/queue-item';
import { said, type Said } from '../queue/said';
import { kindCode } from '../queue/describe-item';
import { uploadRefusalSaid } from '../queue/upload-refusal';
import type { BaseFile } from '../sync-state/base-files';
import type { HeldBackEntry } from '../sync-state/held-back';
import { holdReason, type CompiledIgnoreFile, type HoldRules } from './ignore/never-sent-rules';
import { holdReasonSaid } from './hold-reason-said';
import type { LocalEntry } from './local-files';
import { isConflictCopy, isIgnoredName, isOwnName, nameKey } from './sync-names';
import { stopSaying, type StopReason } from './stop-reason';

/** Between the paths given as examples: a mark, not a word (paths are never translated). */
const EXAMPLE_SEPARATOR = ', ';

/**
 * What a scan of the sync folder decides, as pure functions of what it read: which entries are design folders, new
 * designs, files never sent or files to look at (sortTopLevel, sortFolder), and what goes to the queue (decideScan).
 * `local-scan.ts` reads the folder and the state, and applies the decisions.
 */

/** Stop instead of proposing deletions when more than this share of the synced files vanished at once… */
export const MASS_MISSING_RATIO = 0.5;
/** …and more than this many. */
export const MASS_MISSING_MINIMUM = 5;

/** A file whose size or mtime is not the synced one (or that has none): looked at further. */
export interface Candidate {
  path: string;
  folder: string;
  designId: number;
  /** The name as on disk. */
  name: string;
  entry: LocalEntry;
  base: BaseFile | null;
}

/** A candidate that settled, read: its SHA-1 and, for a new name, why it is never sent (null when it may be). */
export interface ReadCandidate extends Candidate {
  sha1: string;
  refusal: Said | null;
}

/** The synced files by inode and by content, to recognize a moved file. */
export interface BaseIndex {
  byInode: Map<string, BaseFile[]>;
  bySha1: Map<string, BaseFile[]>;
}

export type ScanDecision =
  | { type: 'enqueue'; item: NewQueueItem; message?: Said }
  | { type: 'refresh'; base: BaseFile; entry: LocalEntry; sha1: string }
  | { type: 'move-base'; from: string; to: string; entry: LocalEntry }
  | { type: 'cancel'; id: number; message: Said; path: string };

/** Something a person should hear once about an entry that is not synced. */
export interface ScanNote {
  message: Said;
  path: string;
}

const fileOf = (entry: LocalEntry, sha1: string) => ({ size: entry.size, mtimeMs: entry.mtimeMs, sha1 });
export const sameStat = (a: { size: number; mtimeMs: number }, b: { size: number; mtimeMs: number }) => a.size === b.size && Math.floor(a.mtimeMs) === Math.floor(b.mtimeMs);
const leaf = (path: string) => path.slice(path.indexOf('/') + 1);

/** What the top level of the sync folder holds. */
export interface TopLevel {
  /** Linked design folders to compare with the last synced state (present or not). */
  toScan: { folder: string; designId: number }[];
  /** Folders that are no design's yet: each proposed as a new design. */
  proposals: string[];
  /** Folders an ignore file holds back. */
  held: HeldBackEntry[];
  heldTop: Set<string>;
  notes: ScanNote[];
}

/**
 * The top level: design folders, proposals of new designs, files that belong nowhere. `linked` maps each linked
 * folder to its design, `known` is every folder the sync database knows (linked, proposed, declined…).
 */
export function sortTopLevel(
  top: readonly LocalEntry[], linked: ReadonlyMap<string, number>, known: ReadonlySet<string>, only: ReadonlySet<string> | null,
  rootIgnore: CompiledIgnoreFile | null, describe: (entry: LocalEntry) => Said | string,
): TopLevel {
  const result: TopLevel = { toScan: [], proposals: [], held: [], heldTop: new Set(), notes: [] };
  const proposed = new Set<string>();
  for (const entry of top) {
    if (isOwnName(entry.name)) continue;
    // A folder an ignore file holds back is no design's: not proposed, and a linked one is no longer looked at (its
    // files stay on the service; none is taken for deleted).
    const topReason = entry.type === 'directory' ? holdReason(`${entry.name}/`, { root: rootIgnore, folder: null }) : null;
    if (topReason && (!only || only.has(entry.name))) {
      result.held.push({ path: `${entry.name}/`, folder: entry.name, isFolder: true, reason: topReason, onService: linked.has(entry.name), size: null });
      result.heldTop.add(entry.name);
      continue;
    }
    if (topReason || isIgnoredName(entry.name)) continue;
    if (entry.type === 'other') {
      result.notes.push({ message: said('activity.scan.notAFile', { path: entry.name, what: describe(entry) }), path: entry.name });
      continue;
    }
    if (entry.type !== 'directory') {
      result.notes.push({ message: said('activity.scan.fileAtTop', { path: entry.name }), path: entry.name });
      continue;
    }
    const designId = linked.get(entry.name);
    if (designId !== undefined) {
      if (!only || only.has(entry.name)) result.toScan.push({ folder: entry.name, designId });
    } else if (!known.has(entry.name) && !proposed.has(entry.name)) {
      proposed.add(entry.name);
      result.proposals.push(entry.name);
    }
  }
  // Linked folders no longer on disk: their files count as missing.
  const present = new Set(result.toScan.map((f) => f.folder));
  for (const [folder, designId] of linked) {
    if (!present.has(folder) && !result.heldTop.has(folder) && (!only || only.has(folder)) && !top.some((e) => e.name === folder && e.type === 'directory')) {
      result.toScan.push({ folder, designId });
    }
  }
  return result;
}

/** What one design folder holds, against its last synced state. */
export interface FolderSort {
  held: HeldBackEntry[];
  /** Synced files now never sent (they stay on the service as they are). */
  heldSynced: Set<string>;
  /** Files to look at further. */
  candidates: Candidate[];
  /** Every file of the folder that may be sent. */
  onDisk: Set<string>;
  files: number;
  unchanged: number;
  /** Synced files gone from the folder. */
  missing: BaseFile[];
  notes: ScanNote[];
}

/** A design folder's entries against its synced files (`bases`, by path), under the rules of what is never sent. */
export function sortFolder(
  folder: string, designId: number, entries: readonly LocalEntry[], bases: ReadonlyMap<string, BaseFile>, rules: HoldRules,
  describe: (entry: LocalEntry) => Said | string,
): FolderSort {
  const result: FolderSort = { held: [], heldSynced: new Set(), candidates: [], onDisk: new Set(), files: 0, unchanged: 0, missing: [], notes: [] };
  for (const entry of entries) {
    const path = `${folder}/${entry.name}`;
    const base = bases.get(path) ?? null;
    if (isOwnName(entry.name) || (!base && isConflictCopy(entry.name))) continue;
    const reason = entry.type === 'symlink' || entry.type === 'other' ? null : holdReason(entry.type === 'directory' ? `${path}/` : path, rules);
    if (reason) {
      const isFolder = entry.type === 'directory';
      result.held.push({ path: isFolder ? `${path}/` : path, folder, isFolder, reason, onService: base !== null, size: entry.type === 'file' ? entry.size : null });
      if (base) result.heldSynced.add(path);
      continue;
    }
    if (entry.type === 'directory') {
      result.notes.push({ message: said('activity.scan.subfolder', { path }), path });
      continue;
    }
    if (entry.type !== 'file') {
      // Never opened (reading a named pipe would wait forever, a device could be endless), never sent.
      result.notes.push({
        message: entry.type === 'symlink' ? said('activity.scan.symlink', { path }) : said('activity.scan.notAFile', { path, what: describe(entry) }),
        path,
      });
      continue;
    }
    result.onDisk.add(path);
    result.files++;
    if (base && sameStat(entry, base)) {
      result.unchanged++;
      continue;
    }
    result.candidates.push({ path, folder, designId, name: entry.name, entry, base });
  }
  // A synced file gone from the folder is a deletion to propose, unless it is one never sent now: no file leaves
  // the service because a pattern came to match it. Judged by its name on the service too: one the service renamed
  // to a name that is sent (its name here held back, the file gone) is a deletion to propose like any other.
  for (const [path, base] of bases) {
    if (result.onDisk.has(path) || result.heldSynced.has(path)) continue;
    const serviceName = `${folder}/${base.remoteName}`;
    if (holdReason(path, rules) && (serviceName === path || holdReason(serviceName, rules))) continue;
    result.missing.push(base);
  }
  return result;
}

/** Why a file is never sent (an executable by name or by its first bytes), or null. */
export function refusalOf(name: string, head: Uint8Array): Said | null {
  const byName = uploadRefusalSaid(isImageFileName(name) ? 'image' : 'document', name);
  if (byName) return byName;
  if (looksLikeWindowsExecutable(head)) return said('activity.scan.windowsExecutable', { file: name });
  return null;
}

/** The open items of a path, split by whether one is being sent now. */
export interface OpenSlot {
  running: QueueItem | null;
  pending: QueueItem | null;
}

/** The latest queue item of a path, as far as a decision asks of it. */
export type LatestItem = Pick<QueueItem, 'kind' | 'state' | 'fileSha1' | 'attention'>;

/** Everything the scan's decisions are taken on, read from the folder and the state. */
export interface ScanFacts {
  rootPath: string;
  /** Files that settled and whose record is still not their state, read. */
  decidable: readonly ReadCandidate[];
  /** Synced files gone from the folder (still gone when looked at again), by path, with their records as they are now. */
  missing: ReadonlyMap<string, BaseFile>;
  open: ReadonlyMap<string, OpenSlot>;
  dismissed: ReadonlyMap<string, DismissedVersion>;
  /** The latest queue item of each path a decision may ask of (the refused new files, the missing synced files). */
  latest: ReadonlyMap<string, LatestItem | null>;
  /** Of each design with a new file: its name when its new files wait for the person (review before publishing), else null. */
  published: ReadonlyMap<number, string | null>;
  /** The synced files by inode and content (null when no new file may be a moved one). */
  index: BaseIndex | null;
  /** Synced files (not among `missing`) a new file may have been moved from, whose path is gone too. */
  goneElsewhere: ReadonlySet<string>;
  /** The rules of each folder scanned; the top-level rules for the folders held back whole (`heldTop`). */
  rulesOfFolder: ReadonlyMap<string, HoldRules>;
  heldTop: ReadonlySet<string>;
  rootRules: HoldRules;
  heldSynced: ReadonlySet<string>;
  /** How many files are synced in all. */
  baseCount: number;
  allowManyMissing: boolean;
  /** The waiting items of the folders scanned. */
  pendingInFolders: readonly QueueItem[];
  onDisk: ReadonlySet<string>;
  /** Paths of those items that are files on disk. */
  stillFiles: ReadonlySet<string>;
}

export interface ScanPlan {
  decisions: ScanDecision[];
  /** Files left because an item of theirs is being sent: looked at again when it is done. */
  deferred: string[];
  /** Why the scan stops instead (many files gone at once), or null. */
  stop: StopReason | null;
}

const NO_SLOT: OpenSlot = { running: null, pending: null };

/**
 * What the scan puts in the queue (or withdraws from it, or records), decided before anything is written, so that a
 * mass disappearance writes nothing: new files uploaded (or refused, or held for review), changed ones replaced, moved
 * ones renamed, gone ones proposed for deletion (never deleted), and waiting changes no longer right withdrawn.
 */
export function decideScan(facts: ScanFacts): ScanPlan {
  const decisions: ScanDecision[] = [];
  const deferred: string[] = [];
  const consumed = new Set<string>();
  const openOf = (path: string) => facts.open.get(path) ?? NO_SLOT;
  // A change a person dismissed after the service refused it is not queued again until the file changes.
  const dismissed = (c: Candidate, sha1: string) => isDismissedVersion(facts.dismissed.get(c.path), { designId: c.designId, size: c.entry.size, mtimeMs: c.entry.mtimeMs, sha1 });
  for (const candidate of facts.decidable) {
    const { running, pending } = openOf(candidate.path);
    if (running) {
      deferred.push(candidate.path);
      continue;
    }
    const { base, entry, sha1 } = candidate;
    if (base) {
      if (sha1 === base.sha1) {
        decisions.push({ type: 'refresh', base, entry, sha1 });
      } else if (!(pending?.kind === 'replace' && pending.fileSha1 === sha1) && !dismissed(candidate, sha1)) {
        decisions.push({ type: 'enqueue', item: { kind: 'replace', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind: base.kind, remoteId: base.remoteId, file: fileOf(entry, sha1) } });
      }
      continue;
    }
    // A new name: refused, a move of a synced file, or a new file.
    const refusal = candidate.refusal;
    if (refusal) {
      const last = facts.latest.get(candidate.path) ?? null;
      const sameVersion = last && last.fileSha1 === sha1 && (last.state === 'cancelled' || last.attention === 'refused');
      if (!sameVersion) {
        decisions.push({
          type: 'enqueue', message: refusal,
          item: { kind: 'upload', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind: 'document', file: fileOf(entry, sha1), attention: { kind: 'refused', reason: said('queue.reason.refusedHere', { refusal }) } },
        });
      }
      continue;
    }
    const fileKind = isImageFileName(candidate.name) ? 'image' : 'document';
    const moved = facts.index ? firstGone(moveOptions(candidate, sha1, consumed, facts.index), facts, (path) => openOf(path).running !== null) : null;
    if (moved && moved.folder === candidate.folder && moved.kind === fileKind) {
      consumed.add(moved.path);
      if (pending?.kind === 'rename' && pending.fileSha1 === sha1 && pending.remoteId === moved.remoteId) {
        // already proposed
      } else if (nameKey(leaf(moved.path)) === nameKey(candidate.name)) {
        // Only the normalization (or, on a case-sensitive disk, nothing the service sees) changed.
        decisions.push({ type: 'move-base', from: moved.path, to: candidate.path, entry });
      } else {
        decisions.push({
          type: 'enqueue', message: said('activity.scan.renamed', { from: moved.path, name: candidate.name }),
          item: {
            kind: 'rename', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind: moved.kind, remoteId: moved.remoteId,
            payload: { fromPath: moved.path, newName: candidate.name.normalize('NFC') }, file: fileOf(entry, sha1),
          },
        });
      }
      const old = openOf(moved.path).pending;
      if (old) decisions.push({ type: 'cancel', id: old.id, path: moved.path, message: said('activity.scan.renameWithdrawn', { path: moved.path, name: candidate.name }) });
      continue;
    }
    if (moved && moved.folder !== candidate.folder) {
      // Another design: the file is added there; removing it from the first design waits for the person.
      consumed.add(moved.path);
      if (openOf(moved.path).pending?.kind !== 'delete-remote') decisions.push(deleteDecision(moved, said('queue.reason.movedToOtherDesign', { name: leaf(moved.path), from: moved.folder, to: candidate.folder })));
    }
    if (!(pending?.kind === 'upload' && pending.fileSha1 === sha1) && !dismissed(candidate, sha1)) {
      // A published design is public the moment a file lands: with review before publishing on, it waits for the person.
      const published = facts.published.get(candidate.designId) ?? null;
      const review = published === null ? {} : {
        attention: { kind: 'ready-to-publish' as const, reason: said('queue.reason.readyToPublish', { name: candidate.name, design: published }) },
      };
      decisions.push({
        type: 'enqueue',
        item: { kind: 'upload', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind, payload: { name: candidate.name.normalize('NFC') }, file: fileOf(entry, sha1), ...review },
      });
    }
  }

  // A change waiting to be sent of a file that is never sent now: withdrawn, and said (the file stays as it is, here
  // and on the service).
  // Asked of the rules of the item's folder, whether the file is still there or not (a rename to a name that became
  // ignored, the file renamed again since) and whether it is its own name or its folder that is held back.
  for (const [path, { pending }] of facts.open) {
    if (!pending || !['upload', 'replace', 'rename'].includes(pending.kind)) continue;
    const folder = path.split('/')[0]!;
    const rules = facts.rulesOfFolder.get(folder) ?? (facts.heldTop.has(folder) ? facts.rootRules : null);
    const reason = rules ? holdReason(path, rules) : null;
    if (!reason) continue;
    const onService = pending.kind !== 'upload' || facts.heldSynced.has(path);
    decisions.push({ type: 'cancel', id: pending.id, path, message: said('activity.scan.neverSentNow', { path, why: holdReasonSaid(reason), kind: pending.kind, onService: onService ? 'yes' : 'no' }) });
  }

  // Synced files that are gone: a delete that waits for the person, never a silent one.
  const gone = [...facts.missing.values()].filter((b) => !consumed.has(b.path));
  const total = facts.baseCount;
  if (!facts.allowManyMissing && gone.length > MASS_MISSING_MINIMUM && gone.length > total * MASS_MISSING_RATIO) {
    const examples = gone.slice(0, 3).map((b) => b.path).join(EXAMPLE_SEPARATOR);
    const stop = stopSaying({ id: 'sync.detail.manyGoneHere', values: { folder: facts.rootPath, gone: gone.length, total, examples } });
    return { decisions: [], deferred, stop };
  }
  for (const base of gone) {
    const { running, pending } = openOf(base.path);
    if (running) {
      deferred.push(base.path);
      continue;
    }
    if (pending?.kind === 'delete-remote') continue;
    const last = facts.latest.get(base.path) ?? null;
    if (last?.kind === 'delete-remote' && last.state === 'cancelled') continue; // turned down: the remote pass brings the file back
    decisions.push(deleteDecision(base, said('queue.reason.deletedHere', { name: leaf(base.path), folder: base.folder })));
  }

  // Items whose file is gone before they were sent (a file saved then removed, a conflict copy merged and deleted).
  const decided = new Set(decisions.flatMap((d) => (d.type === 'enqueue' && d.item.path ? [d.item.path] : [])));
  for (const item of facts.pendingInFolders) {
    if (!item.path || item.kind === 'create-design' || decided.has(item.path)) continue;
    if (item.kind === 'delete-remote') {
      if (facts.onDisk.has(item.path)) decisions.push({ type: 'cancel', id: item.id, path: item.path, message: said('activity.scan.deletionWithdrawn', { path: item.path }) });
      continue;
    }
    if (facts.onDisk.has(item.path)) continue;
    if (item.kind === 'rename' || item.kind === 'replace') continue; // their base is handled above
    if (facts.stillFiles.has(item.path)) continue;
    decisions.push({ type: 'cancel', id: item.id, path: item.path, message: said('activity.scan.pendingWithdrawn', { path: item.path, kind: item.attention === 'conflict' ? 'conflict' : kindCode(item.kind) }) });
  }
  return { decisions, deferred, stop: null };
}

/** The waiting items of the folders scanned whose file the decisions may ask about on disk (see decideScan's last step). */
export function itemsToLookFor(items: readonly QueueItem[], onDisk: ReadonlySet<string>): string[] {
  return items.flatMap((item) => (item.path && item.kind !== 'create-design' && item.kind !== 'delete-remote' && item.kind !== 'rename' && item.kind !== 'replace' && !onDisk.has(item.path) ? [item.path] : []));
}

function deleteDecision(base: BaseFile, reason: Said): ScanDecision {
  return {
    type: 'enqueue',
    item: { kind: 'delete-remote', path: base.path, folder: base.folder, designId: base.designId, fileKind: base.kind, remoteId: base.remoteId, attention: { kind: 'confirm-delete', reason } },
  };
}

/** Synced files this new file may be, moved (same inode, or same size and content), same folder first. */
export function moveOptions(candidate: Candidate, sha1: string, consumed: ReadonlySet<string>, index: BaseIndex): BaseFile[] {
  // The same inode is the same file only with the same content: a file edited and then renamed is a new file (its
  // edit would be lost if it were taken for a rename, which keeps the service's content).
  const byInode = (index.byInode.get(candidate.entry.inode) ?? []).filter((b) => b.sha1 === sha1);
  const bySha = (index.bySha1.get(sha1) ?? []).filter((b) => b.size === candidate.entry.size);
  const options = [...byInode, ...bySha].filter((b) => b.path !== candidate.path && !consumed.has(b.path));
  return options.sort((a, b) => Number(b.folder === candidate.folder) - Number(a.folder === candidate.folder));
}

/** The first of the options whose path is gone (and not being sent): the synced file the new one was. */
function firstGone(options: BaseFile[], facts: ScanFacts, sending: (path: string) => boolean): BaseFile | null {
  for (const option of options) {
    const gone = facts.missing.has(option.path) || facts.goneElsewhere.has(option.path);
    if (!gone || sending(option.path)) continue;
    return option;
  }
  return null;
}

/** The synced files by inode and by content. */
export function indexBases(bases: readonly BaseFile[]): BaseIndex {
  const built: BaseIndex = { byInode: new Map(), bySha1: new Map() };
  const add = (map: Map<string, BaseFile[]>, key: string, base: BaseFile) => {
    const list = map.get(key);
    if (list) list.push(base);
    else map.set(key, [base]);
  };
  for (const base of bases) {
    if (base.inode) add(built.byInode, base.inode, base);
    add(built.bySha1, base.sha1, base);
  }
  return built;
}
