import { join } from 'node:path';
import { isImageFileName, looksLikeWindowsExecutable, uploadRefusal } from '../../../shared';
import type { NewQueueItem, QueueItem } from '../queue/queue-item';
import { isDismissedVersion } from '../queue/dismissed-versions';
import type { BaseFile } from '../sync-state/base-files';
import { describeSpecial, readContents, readFolder, statEntries, statEntry, type BadlyNamedEntry, type LocalEntry } from './local-files';
import { sleep, type ScanSummary, type SyncContext, type SyncEvent } from './sync-context';
import { isConflictCopy, isIgnoredName, isOwnName, nameKey } from './sync-names';
import type { HeldBackEntry } from '../sync-state/held-back';
import { loadIgnoreFile, type LoadedIgnoreFile } from './ignore/ignore-files';
import { builtInPatterns, holdKey, holdReason, holdReasonWords, IGNORE_FILE, type HoldReason, type HoldRules } from './ignore/never-sent-rules';

/** Stop instead of proposing deletions when more than this share of the synced files vanished at once… */
export const MASS_MISSING_RATIO = 0.5;
/** …and more than this many. */
export const MASS_MISSING_MINIMUM = 5;

interface Candidate {
  path: string;
  folder: string;
  designId: number;
  /** The name as on disk. */
  name: string;
  entry: LocalEntry;
  base: BaseFile | null;
}

/** The synced files by inode and by content, to recognize a moved file (built once per scan, when first needed). */
interface BaseIndex {
  byInode: Map<string, BaseFile[]>;
  bySha1: Map<string, BaseFile[]>;
}

type Decision =
  | { type: 'enqueue'; item: NewQueueItem; message?: string }
  | { type: 'refresh'; base: BaseFile; entry: LocalEntry; sha1: string }
  | { type: 'move-base'; from: string; to: string; entry: LocalEntry }
  | { type: 'cancel'; id: number; message: string; path: string };

export interface ScanOptions {
  /** Only these top-level folders (the watcher's hint); default all. */
  folders?: readonly string[];
  /** 'wait': wait for files being written, up to maxSettleWaitMs (a one-shot pass); 'once': check once, leave the rest. */
  settle?: 'wait' | 'once';
  /** Propose deletions even when many files vanished at once (the person said they meant it). */
  allowManyMissing?: boolean;
}

const fileOf = (entry: LocalEntry, sha1: string) => ({ size: entry.size, mtimeMs: entry.mtimeMs, sha1 });
const sameStat = (a: { size: number; mtimeMs: number }, b: { size: number; mtimeMs: number }) => a.size === b.size && Math.floor(a.mtimeMs) === Math.floor(b.mtimeMs);
const leaf = (path: string) => path.slice(path.indexOf('/') + 1);

/**
 * Compares the sync folder with the last synced state and puts what changed in the queue. The folder is the
 * source of truth; the watcher only says when to look. Nothing is sent from here, and nothing is deleted:
 * a vanished file becomes a delete that waits for the person's confirmation.
 */
export async function scanLocal(ctx: SyncContext, options: ScanOptions = {}): Promise<ScanSummary> {
  const started = performance.now();
  const summary: ScanSummary = { folders: 0, files: 0, unchanged: 0, refreshed: 0, enqueued: 0, unsettled: [], deferred: [], proposedDesigns: [], heldBack: 0, durationMs: 0, stopped: null };
  const done = () => {
    summary.durationMs = Math.round(performance.now() - started);
    ctx.emit({ type: 'scan', summary });
    return summary;
  };
  const check = ctx.root.verify();
  if (!check.ok) {
    ctx.stop(check.reason);
    summary.stopped = check.reason;
    return done();
  }
  const rootPath = check.root.path;
  const only = options.folders ? new Set(options.folders) : null;
  // What is never sent: the built-in list and the ignore files. One that cannot be read or used holds everything
  // back (it may mean to hold a file back): nothing is decided until it is fixed.
  const rootIgnore = await loadIgnoreFile(rootPath, IGNORE_FILE);
  if (rootIgnore.problem) {
    ctx.reportOnce(rootIgnore.problem, IGNORE_FILE);
    return done();
  }
  // Compiled for this scan only: the matchers keep every path they were asked of.
  const builtIn = builtInPatterns();
  const held: HeldBackEntry[] = [];
  const heldTop = new Set<string>();
  const hold = (path: string, folder: string, isFolder: boolean, reason: HoldReason, onService: boolean, size: number | null) => {
    held.push({ path, folder, isFolder, reason, onService, size });
  };

  // 1. The top level: design folders, proposals of new designs, files that belong nowhere.
  const topBadNames: BadlyNamedEntry[] = [];
  const top = await readFolder(rootPath, topBadNames);
  if (top === null) return stopped();
  for (const bad of topBadNames) reportBadName(ctx, null, bad);
  const linked = new Map(ctx.folders.all().filter((f) => f.state === 'linked' && f.designId !== null).map((f) => [f.folder, f.designId!]));
  const known = new Set(ctx.folders.all().map((f) => f.folder));
  const toScan: { folder: string; designId: number }[] = [];
  for (const entry of top) {
    if (isOwnName(entry.name)) continue;
    // A folder an ignore file holds back is no design's: not proposed, and a linked one is no longer looked at (its
    // files stay on the service; none is taken for deleted).
    const topReason = entry.type === 'directory' ? holdReason(`${entry.name}/`, { root: rootIgnore.compiled, folder: null }) : null;
    if (topReason && (!only || only.has(entry.name))) {
      hold(`${entry.name}/`, entry.name, true, topReason, linked.has(entry.name), null);
      heldTop.add(entry.name);
      continue;
    }
    if (topReason || isIgnoredName(entry.name)) continue;
    if (entry.type === 'other') {
      ctx.reportOnce(`${entry.name} is ${describeSpecial(entry)}, not a file: it is not synced.`, entry.name);
      continue;
    }
    if (entry.type !== 'directory') {
      ctx.reportOnce(`${entry.name} is at the top of the sync folder, outside any design's folder: it is not synced. Move it into a design's folder.`, entry.name);
      continue;
    }
    const designId = linked.get(entry.name);
    if (designId !== undefined) {
      if (!only || only.has(entry.name)) toScan.push({ folder: entry.name, designId });
    } else if (!known.has(entry.name)) {
      proposeDesign(ctx, entry.name);
      known.add(entry.name);
      summary.proposedDesigns.push(entry.name);
    }
  }
  // Linked folders no longer on disk: their files count as missing.
  const present = new Set(toScan.map((f) => f.folder));
  for (const [folder, designId] of linked) {
    if (!present.has(folder) && !heldTop.has(folder) && (!only || only.has(folder)) && !top.some((e) => e.name === folder && e.type === 'directory')) toScan.push({ folder, designId });
  }
  summary.folders = toScan.length;

  // 2. Each design folder against the last synced state.
  const candidates: Candidate[] = [];
  const onDisk = new Set<string>();
  const missing = new Map<string, BaseFile>();
  const heldSynced = new Set<string>();
  const scanned: string[] = [];
  const rulesOfFolder = new Map<string, HoldRules>();
  for (const { folder, designId } of toScan) {
    const badNames: BadlyNamedEntry[] = [];
    const entries = (await readFolder(join(rootPath, folder), badNames)) ?? [];
    const folderIgnore: LoadedIgnoreFile | null = entries.some((entry) => entry.name === IGNORE_FILE && entry.type === 'file')
      ? await loadIgnoreFile(rootPath, `${folder}/${IGNORE_FILE}`) : null;
    if (folderIgnore?.problem) {
      // Its files wait (none sent, none taken for deleted) until its ignore file can be used.
      ctx.reportOnce(folderIgnore.problem, `${folder}/${IGNORE_FILE}`);
      continue;
    }
    scanned.push(folder);
    const rules: HoldRules = { root: rootIgnore.compiled, folder: folderIgnore?.compiled ?? null, builtIn };
    rulesOfFolder.set(folder, rules);
    for (const bad of badNames) reportBadName(ctx, folder, bad);
    const bases = new Map(ctx.base.inFolder(folder).map((b) => [b.path, b]));
    for (const entry of entries) {
      const path = `${folder}/${entry.name}`;
      const base = bases.get(path) ?? null;
      if (isOwnName(entry.name) || (!base && isConflictCopy(entry.name))) continue;
      const reason = entry.type === 'symlink' || entry.type === 'other' ? null : holdReason(entry.type === 'directory' ? `${path}/` : path, rules);
      if (reason) {
        hold(entry.type === 'directory' ? `${path}/` : path, folder, entry.type === 'directory', reason, base !== null, entry.type === 'file' ? entry.size : null);
        if (base) heldSynced.add(path);
        continue;
      }
      if (entry.type === 'directory') {
        ctx.reportOnce(`${path}: folders inside a design's folder are not synced (a design holds files only). Move its files up one level.`, path);
        continue;
      }
      if (entry.type !== 'file') {
        if (entry.type === 'symlink') ctx.reportOnce(`${path} is a symbolic link: links are not followed or synced. Put the file itself in the folder.`, path);
        // Never opened (reading a named pipe would wait forever, a device could be endless), never sent.
        else ctx.reportOnce(`${path} is ${describeSpecial(entry)}, not a file: it is not synced.`, path);
        continue;
      }
      onDisk.add(path);
      summary.files++;
      if (base && sameStat(entry, base)) {
        summary.unchanged++;
        continue;
      }
      candidates.push({ path, folder, designId, name: entry.name, entry, base });
    }
    // A synced file gone from the folder is a deletion to propose, unless it is one never sent now: no file leaves
    // the service because a pattern came to match it.
    for (const [path, base] of bases) {
      if (onDisk.has(path) || heldSynced.has(path)) continue;
      if (holdReason(path, rules)) continue;
      missing.set(path, base);
    }
  }
  summary.heldBack = held.length;

  // 3. Only files that stopped changing go further (never a half-written file).
  const settled = await settle(ctx, candidates, options.settle ?? 'once', summary);

  // Paths gone a moment ago may be back (an editor saving through a rename: Blender and FreeCAD move the file to its
  // backup name, then their new save into place): look again once the settle time has passed, as the settle check
  // did if there was anything to settle.
  const gonePaths = [...missing.keys()];
  if (gonePaths.length > 0 && candidates.length === 0) await sleep(ctx.settleMs);
  const lookedAgain = await statEntries(gonePaths.map((path) => join(rootPath, path)));
  gonePaths.forEach((path, i) => lookedAgain[i]?.type === 'file' && missing.delete(path));

  // 4. Decisions, made before anything is written so that a mass disappearance writes nothing.
  const decisions: Decision[] = [];
  const consumed = new Set<string>();
  // Read once per scan, not once per file: the open queue items and (when a new file may be a moved one) the synced files.
  const open = new Map<string, { running: QueueItem | null; pending: QueueItem | null }>();
  for (const item of ctx.queue.list({ states: ['running', 'waiting', 'attention'] })) {
    if (!item.path) continue;
    const slot = open.get(item.path) ?? { running: null, pending: null };
    if (item.state === 'running') slot.running = item;
    else slot.pending = item;
    open.set(item.path, slot);
  }
  const openItems = (_queue: unknown, path: string) => open.get(path) ?? { running: null, pending: null };
  // The queue runner works meanwhile: an item it finished since the folders were read (an upload, a replace, a
  // rename, a delete) wrote the last synced state. Decide on that state as it is now, read together with the open
  // items above (no await in between), or a file uploaded a moment ago would be queued again as a new one.
  const basesNow = new Map<string, BaseFile>();
  const touched = new Set([...settled.map((c) => c.folder), ...[...missing.values()].map((b) => b.folder)]);
  for (const folder of touched) for (const base of ctx.base.inFolder(folder)) basesNow.set(base.path, base);
  const decidable: Candidate[] = [];
  for (const candidate of settled) {
    const base = basesNow.get(candidate.path) ?? null;
    if (base && sameStat(candidate.entry, base)) {
      summary.unchanged++;
      continue;
    }
    decidable.push(base === candidate.base ? candidate : { ...candidate, base });
  }
  for (const path of [...missing.keys()]) {
    const base = basesNow.get(path);
    if (base) missing.set(path, base);
    else missing.delete(path);
  }
  let index: BaseIndex | null = null;
  const baseIndex = (): BaseIndex => {
    if (index) return index;
    const built: BaseIndex = { byInode: new Map(), bySha1: new Map() };
    const add = (map: Map<string, BaseFile[]>, key: string, base: BaseFile) => {
      const list = map.get(key);
      if (list) list.push(base);
      else map.set(key, [base]);
    };
    for (const base of ctx.base.all()) {
      if (base.inode) add(built.byInode, base.inode, base);
      add(built.bySha1, base.sha1, base);
    }
    return (index = built);
  };
  // One read of each file gives its SHA-1 and, for a new name, the first bytes that tell an executable.
  const hashes = new Map<string, string>();
  const refusals = new Map<string, string | null>();
  const contents = await readContents(decidable.map((c) => ({ path: join(rootPath, c.path), size: c.entry.size })));
  for (const [i, c] of decidable.entries()) {
    hashes.set(c.path, contents[i]!.sha1);
    if (!c.base) refusals.set(c.path, refusalOf(c.name, contents[i]!.head));
  }
  // A change a person dismissed after the service refused it is not queued again until the file changes.
  const dismissedVersions = ctx.queue.dismissedVersions(decidable.map((c) => c.path));
  const dismissed = (c: Candidate, sha1: string) => isDismissedVersion(dismissedVersions.get(c.path), { designId: c.designId, size: c.entry.size, mtimeMs: c.entry.mtimeMs, sha1 });
  for (const candidate of decidable) {
    const { running, pending } = openItems(ctx.queue, candidate.path);
    if (running) {
      summary.deferred.push(candidate.path);
      continue;
    }
    const sha1 = hashes.get(candidate.path)!;
    const { base, entry } = candidate;
    if (base) {
      if (sha1 === base.sha1) {
        decisions.push({ type: 'refresh', base, entry, sha1 });
      } else if (!(pending?.kind === 'replace' && pending.fileSha1 === sha1) && !dismissed(candidate, sha1)) {
        decisions.push({ type: 'enqueue', item: { kind: 'replace', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind: base.kind, remoteId: base.remoteId, file: fileOf(entry, sha1) } });
      }
      continue;
    }
    // A new name: refused, a move of a synced file, or a new file.
    const refusal = refusals.get(candidate.path) ?? null;
    if (refusal) {
      const last = ctx.queue.latestForPath(candidate.path);
      const sameVersion = last && last.fileSha1 === sha1 && (last.state === 'cancelled' || last.attention === 'refused');
      if (!sameVersion) {
        decisions.push({
          type: 'enqueue', message: refusal,
          item: { kind: 'upload', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind: 'document', file: fileOf(entry, sha1), attention: { kind: 'refused', reason: `${refusal}. It is not sent; remove it from the folder or cancel this item.` } },
        });
      }
      continue;
    }
    const fileKind = isImageFileName(candidate.name) ? 'image' : 'document';
    const maybeMoved = moveOptions(candidate, sha1, consumed, baseIndex);
    const moved = maybeMoved.length === 0 ? null : await firstGone(rootPath, maybeMoved, missing, (path) => openItems(null, path).running !== null);
    if (moved && moved.folder === candidate.folder && moved.kind === fileKind) {
      consumed.add(moved.path);
      if (pending?.kind === 'rename' && pending.fileSha1 === sha1 && pending.remoteId === moved.remoteId) {
        // already proposed
      } else if (nameKey(leaf(moved.path)) === nameKey(candidate.name)) {
        // Only the normalization (or, on a case-sensitive disk, nothing the service sees) changed.
        decisions.push({ type: 'move-base', from: moved.path, to: candidate.path, entry });
      } else {
        decisions.push({
          type: 'enqueue', message: `${moved.path} was renamed to ${candidate.name}: the file on the service is renamed, not sent again.`,
          item: {
            kind: 'rename', path: candidate.path, folder: candidate.folder, designId: candidate.designId, fileKind: moved.kind, remoteId: moved.remoteId,
            payload: { fromPath: moved.path, newName: candidate.name.normalize('NFC') }, file: fileOf(entry, sha1),
          },
        });
      }
      const old = openItems(ctx.queue, moved.path).pending;
      if (old) decisions.push({ type: 'cancel', id: old.id, path: moved.path, message: `${moved.path}: withdrawn, the file was renamed to ${candidate.name}.` });
      continue;
    }
    if (moved && moved.folder !== candidate.folder) {
      // Another design: the file is added there; removing it from the first design waits for the person.
      consumed.add(moved.path);
      if (openItems(ctx.queue, moved.path).pending?.kind !== 'delete-remote') decisions.push(deleteDecision(moved, `${leaf(moved.path)} was moved from ${moved.folder} to ${candidate.folder}: it is uploaded to the other design; confirm to delete it from the design of ${moved.folder} on the service too.`));
    }
    if (!(pending?.kind === 'upload' && pending.fileSha1 === sha1) && !dismissed(candidate, sha1)) {
      // A published design is public the moment a file lands: with review before publishing on, it waits for the person.
      const published = ctx.reviewBeforePublishing(candidate.designId);
      const review = published === null ? {} : {
        attention: { kind: 'ready-to-publish' as const, reason: `Ready to publish: ${candidate.name} is sent to “${published}”, which is public, when you say so.` },
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
  const rootRules: HoldRules = { root: rootIgnore.compiled, folder: null, builtIn };
  for (const [path, { pending }] of open) {
    if (!pending || !['upload', 'replace', 'rename'].includes(pending.kind)) continue;
    const folder = path.split('/')[0]!;
    const rules = rulesOfFolder.get(folder) ?? (heldTop.has(folder) ? rootRules : null);
    const reason = rules ? holdReason(path, rules) : null;
    if (!reason) continue;
    const onService = pending.kind !== 'upload' || heldSynced.has(path);
    const what = pending.kind === 'upload' ? 'upload' : pending.kind === 'replace' ? 'new version' : 'rename';
    decisions.push({ type: 'cancel', id: pending.id, path, message: `${path} is never sent now (${holdReasonWords(reason)}): its ${what} was cancelled.${onService ? ' The file on the service stays as it is.' : ''}` });
  }

  // The folder may have gone while it was read (moved, its disk unmounted): what it held is then not "deleted".
  if (!ctx.root.verify().ok) return stopped();

  // 5. Synced files that are gone: a delete that waits for the person, never a silent one.
  const gone = [...missing.values()].filter((b) => !consumed.has(b.path));
  const total = ctx.base.count();
  if (!options.allowManyMissing && gone.length > MASS_MISSING_MINIMUM && gone.length > total * MASS_MISSING_RATIO) {
    const reason = `Many files disappeared at once from ${rootPath} (${gone.length} of ${total} synced files, e.g. ${gone.slice(0, 3).map((b) => b.path).join(', ')}): ` +
      'a disk unmounted, a folder moved or emptied? Sync is stopped; nothing was changed on the service. Put the files back, or, if you deleted them on purpose, ' +
      'sync once with --allow-mass-delete to propose their deletion (each still waits for your confirmation).';
    ctx.stop(reason);
    summary.stopped = reason;
    return done();
  }
  for (const base of gone) {
    const { running, pending } = openItems(ctx.queue, base.path);
    if (running) {
      summary.deferred.push(base.path);
      continue;
    }
    if (pending?.kind === 'delete-remote') continue;
    const last = ctx.queue.latestForPath(base.path);
    if (last?.kind === 'delete-remote' && last.state === 'cancelled') continue; // turned down: the remote pass brings the file back
    decisions.push(deleteDecision(base, `${leaf(base.path)} was deleted from the folder ${base.folder}: confirm to delete it on the service too.`));
  }

  // Items whose file is gone before they were sent (a file saved then removed, a conflict copy merged and deleted).
  const decided = new Set(decisions.flatMap((d) => (d.type === 'enqueue' && d.item.path ? [d.item.path] : [])));
  for (const item of ctx.queue.pendingInFolders(toScan.map((f) => f.folder))) {
    if (!item.path || item.kind === 'create-design' || decided.has(item.path)) continue;
    if (item.kind === 'delete-remote') {
      if (onDisk.has(item.path)) decisions.push({ type: 'cancel', id: item.id, path: item.path, message: `${item.path} is back in the folder: its deletion on the service was withdrawn.` });
      continue;
    }
    if (onDisk.has(item.path)) continue;
    if (item.kind === 'rename' || item.kind === 'replace') continue; // their base is handled above
    if ((await statEntry(join(rootPath, item.path)))?.type === 'file') continue;
    decisions.push({ type: 'cancel', id: item.id, path: item.path, message: `${item.path} is no longer in the folder: its pending ${item.attention === 'conflict' ? 'conflict' : item.kind} was withdrawn.` });
  }

  // Checked again after the last await: decisions are applied only to the folder as it still is.
  if (!ctx.root.verify().ok) return stopped();

  // 6. Apply, in one transaction: one durable commit (synchronous=FULL) instead of one per file.
  const events: SyncEvent[] = [];
  // Immediate: the write lock is taken (or waited for) at once, so that another process's write (design-sync ignore
  // add, the app) between its reads and writes cannot fail it half-way with "database is locked".
  ctx.db.transaction(() => {
    for (const decision of decisions) apply(decision);
    ctx.heldBack.replace(only ? [...scanned, ...heldTop] : 'all', held, holdKey);
  }).immediate();
  for (const event of events) ctx.emit(event);
  ctx.queue.markScanned(ctx.now());
  return done();

  function stopped(): ScanSummary {
    const now = ctx.root.verify();
    const reason = now.ok ? `The sync folder ${rootPath} vanished while it was being read (disk unmounted or folder moved?). Sync is stopped; nothing was changed on the service.` : now.reason;
    ctx.stop(reason);
    summary.stopped = reason;
    return done();
  }

  function apply(decision: Decision): void {
    switch (decision.type) {
      case 'refresh':
        ctx.base.record({ ...decision.base, size: decision.entry.size, mtimeMs: decision.entry.mtimeMs, inode: decision.entry.inode, sha1: decision.sha1 });
        summary.refreshed++;
        break;
      case 'move-base':
        ctx.base.move(decision.from, decision.to, { mtimeMs: decision.entry.mtimeMs, inode: decision.entry.inode });
        summary.refreshed++;
        break;
      case 'cancel':
        ctx.queue.cancel(decision.id, { dismiss: false });
        ctx.log('info', decision.message, decision.path);
        break;
      case 'enqueue': {
        const item = ctx.queue.enqueue(decision.item);
        summary.enqueued++;
        if (decision.message) ctx.log(decision.item.attention?.kind === 'refused' ? 'warning' : 'info', decision.message, decision.item.path ?? null);
        events.push({ type: 'enqueued', item });
        break;
      }
    }
  }
}

/** A name that is not valid UTF-8 names nothing a string can hold: reported once, never sent. */
function reportBadName(ctx: SyncContext, folder: string | null, bad: BadlyNamedEntry): void {
  const what = bad.type === 'directory' ? 'a folder' : bad.type === 'file' ? 'a file' : bad.type === 'symlink' ? 'a symbolic link' : 'an entry';
  const where = folder ? `${folder}/${bad.shownAs}` : bad.shownAs;
  const place = folder ? `In ${folder}` : 'At the top of the sync folder';
  ctx.reportOnce(`${place}, ${what} whose name is not valid UTF-8 (shown as “${bad.shownAs}”, bytes ${bad.bytes}) is not synced: rename it to sync it.`, where);
}

function deleteDecision(base: BaseFile, reason: string): Decision {
  return {
    type: 'enqueue',
    item: { kind: 'delete-remote', path: base.path, folder: base.folder, designId: base.designId, fileKind: base.kind, remoteId: base.remoteId, attention: { kind: 'confirm-delete', reason } },
  };
}

function proposeDesign(ctx: SyncContext, folder: string): void {
  ctx.folders.setState(folder, 'proposed');
  const suggested = folder.normalize('NFC').replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 255) || folder;
  const item = ctx.queue.enqueue({
    kind: 'create-design', folder,
    payload: { name: suggested, excerpt: '', license: null, publish: false },
    attention: {
      kind: 'confirm-design',
      reason: `The new folder ${folder} can become a new design of yours. Confirm with its name, a short excerpt and a license to create it (it is not published unless you say so).`,
    },
  });
  ctx.log('info', `New folder ${folder}: proposed as a new design, waiting for your confirmation.`, folder);
  ctx.emit({ type: 'enqueued', item });
}

/** Why a file is never sent (an executable by name or by its first bytes), or null. */
function refusalOf(name: string, head: Uint8Array): string | null {
  const byName = uploadRefusal(isImageFileName(name) ? 'image' : 'document', name);
  if (byName) return byName;
  if (looksLikeWindowsExecutable(head)) return `${name}: the content is a Windows executable, which the service does not accept`;
  return null;
}

/** Synced files this new file may be, moved (same inode, or same size and content), same folder first. */
function moveOptions(candidate: Candidate, sha1: string, consumed: Set<string>, index: () => BaseIndex): BaseFile[] {
  // The same inode is the same file only with the same content: a file edited and then renamed is a new file (its
  // edit would be lost if it were taken for a rename, which keeps the service's content).
  const byInode = (index().byInode.get(candidate.entry.inode) ?? []).filter((b) => b.sha1 === sha1);
  const bySha = (index().bySha1.get(sha1) ?? []).filter((b) => b.size === candidate.entry.size);
  const options = [...byInode, ...bySha].filter((b) => b.path !== candidate.path && !consumed.has(b.path));
  return options.sort((a, b) => Number(b.folder === candidate.folder) - Number(a.folder === candidate.folder));
}

/** The first of the options whose path is gone (and not being sent): the synced file the new one was. */
async function firstGone(rootPath: string, options: BaseFile[], missing: Map<string, BaseFile>, sending: (path: string) => boolean): Promise<BaseFile | null> {
  for (const option of options) {
    const gone = missing.has(option.path) || !(await statEntry(join(rootPath, option.path)));
    if (!gone || sending(option.path)) continue;
    return option;
  }
  return null;
}

async function settle(ctx: SyncContext, candidates: Candidate[], mode: 'wait' | 'once', summary: ScanSummary): Promise<Candidate[]> {
  if (candidates.length === 0) return [];
  const root = ctx.root.current()!.path;
  const settled: Candidate[] = [];
  let pending = candidates;
  const deadline = Date.now() + ctx.maxSettleWaitMs;
  for (;;) {
    await sleep(ctx.settleMs);
    const still: Candidate[] = [];
    const stats = await statEntries(pending.map((c) => join(root, c.path)));
    for (const [i, candidate] of pending.entries()) {
      const now = stats[i] ?? null;
      if (!now || now.type !== 'file') continue; // gone meanwhile (a temp file renamed away): the next scan sees the result
      // An empty file is what many tools leave while they work (OpenSCAD truncates its export, then writes it once
      // the model is computed, which can take minutes): it is sent only once it stayed empty for emptySettleMs.
      const emptyForNow = now.size === 0 && ctx.now() - now.mtimeMs < ctx.emptySettleMs;
      if (!emptyForNow && sameStat(now, candidate.entry) && now.inode === candidate.entry.inode) {
        settled.push(candidate);
        ctx.emit({ type: 'settled', path: candidate.path, size: now.size, mtimeMs: now.mtimeMs });
      } else {
        still.push({ ...candidate, entry: now });
      }
    }
    pending = still;
    // An empty file is waited for only when its wait ends before the deadline; else it is left to a later pass.
    const waitable = pending.some((candidate) => candidate.entry.size > 0 || candidate.entry.mtimeMs + ctx.emptySettleMs <= ctx.now() + (deadline - Date.now()));
    if (!waitable || mode === 'once' || Date.now() + ctx.settleMs > deadline) break;
  }
  for (const candidate of pending) {
    summary.unsettled.push(candidate.path);
    ctx.emit({ type: 'unsettled', path: candidate.path });
  }
  return settled;
}
