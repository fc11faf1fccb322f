import { join } from 'node:path';
import type { QueueItem } from '../queue/queue-item';
import type { BaseFile } from '../sync-state/base-files';
import { readContents, readFolder, statEntries, type BadlyNamedEntry } from './local-files';
import { sleep, type ScanSummary, type SyncContext, type SyncEvent } from './sync-context';
import type { HeldBackEntry } from '../sync-state/held-back';
import { loadIgnoreFile, type LoadedIgnoreFile } from './ignore/ignore-files';
import { builtInPatterns, holdKey, IGNORE_FILE, type HoldRules } from './ignore/never-sent-rules';
import {
  decideScan, indexBases, itemsToLookFor, moveOptions, refusalOf, sameStat, sortFolder, sortTopLevel,
  type Candidate, type LatestItem, type OpenSlot, type ReadCandidate, type ScanDecision, type ScanFacts, type ScanNote,
} from './scan-decisions';
import { said } from '../queue/said';
import { specialSaid } from './hold-reason-said';
import { stopSaying } from './stop-reason';

export interface ScanOptions {
  /** Only these top-level folders (the watcher's hint); default all. */
  folders?: readonly string[];
  /** 'wait': wait for files being written, up to maxSettleWaitMs (a one-shot pass); 'once': check once, leave the rest. */
  settle?: 'wait' | 'once';
  /** Propose deletions even when many files vanished at once (the person said they meant it). */
  allowManyMissing?: boolean;
}

/** Why a scan ends before deciding: the reason it stopped sync, or null when it only waits (an ignore file that cannot be used). */
type Ended = { ended: string | null };

/**
 * Compares the sync folder with the last synced state and puts what changed in the queue. The folder is the
 * source of truth; the watcher only says when to look. Nothing is sent from here, and nothing is deleted:
 * a vanished file becomes a delete that waits for the person's confirmation. Three steps: the folder and the state
 * read (collectScan), the decisions taken on what was read (decideScan, scan-decisions.ts), then applied in one
 * transaction.
 */
export async function scanLocal(ctx: SyncContext, options: ScanOptions = {}): Promise<ScanSummary> {
  const started = performance.now();
  const summary: ScanSummary = { folders: 0, files: 0, unchanged: 0, refreshed: 0, enqueued: 0, unsettled: [], deferred: [], proposedDesigns: [], heldBack: 0, durationMs: 0, stopped: null };
  const done = () => {
    summary.durationMs = Math.round(performance.now() - started);
    ctx.emit({ type: 'scan', summary });
    return summary;
  };
  const collected = await collectScan(ctx, options, summary);
  if ('ended' in collected) {
    summary.stopped = collected.ended;
    return done();
  }
  const { facts, rootPath, held, heldScope } = collected;
  // The folder may have gone while it was read (moved, its disk unmounted): what it held is then not "deleted".
  if (!ctx.root.verify().ok) {
    summary.stopped = vanished(ctx, rootPath);
    return done();
  }

  const plan = decideScan(facts);
  summary.deferred.push(...plan.deferred);
  if (plan.stop) {
    ctx.stop(plan.stop);
    summary.stopped = plan.stop.reason;
    return done();
  }
  applyScan(ctx, plan.decisions, summary, () => ctx.heldBack.replace(heldScope, held, holdKey));
  ctx.queue.markScanned(ctx.now());
  return done();
}

/** Stops sync because the sync folder is not there as it was (or vanished while it was read); the reason. */
function vanished(ctx: SyncContext, rootPath: string): string {
  const now = ctx.root.verify();
  const stop = now.ok ? stopSaying({ id: 'sync.detail.vanishedWhileRead', values: { folder: rootPath } }) : now;
  ctx.stop(stop);
  return stop.reason;
}

interface Collected {
  facts: ScanFacts;
  rootPath: string;
  /** What was found held back, and which folders' list it replaces ('all' for a full scan). */
  held: HeldBackEntry[];
  heldScope: string[] | 'all';
}

/**
 * Reads what the decisions are taken on: the top level (proposing each new folder as a design at once), each design
 * folder against its synced files, the files that changed once they stopped changing (hashed, their first bytes
 * read), and the queue's open items with the synced state as they are now.
 */
async function collectScan(ctx: SyncContext, options: ScanOptions, summary: ScanSummary): Promise<Collected | Ended> {
  const check = ctx.root.verify();
  if (!check.ok) {
    ctx.stop(check);
    return { ended: check.reason };
  }
  const rootPath = check.root.path;
  const only = options.folders ? new Set(options.folders) : null;
  // What is never sent: the built-in list and the ignore files. One that cannot be read or used holds everything
  // back (it may mean to hold a file back): nothing is decided until it is fixed.
  const rootIgnore = await loadIgnoreFile(rootPath, IGNORE_FILE);
  if (rootIgnore.problem) {
    ctx.reportOnce({ text: rootIgnore.problem, words: rootIgnore.problemWords ?? null }, IGNORE_FILE);
    return { ended: null };
  }
  // Compiled for this scan only: the matchers keep every path they were asked of.
  const builtIn = builtInPatterns();
  const note = ({ message, path }: ScanNote) => ctx.reportOnce(message, path);

  // 1. The top level: design folders, proposals of new designs, files that belong nowhere.
  const topBadNames: BadlyNamedEntry[] = [];
  const top = await readFolder(rootPath, topBadNames);
  if (top === null) return { ended: vanished(ctx, rootPath) };
  for (const bad of topBadNames) reportBadName(ctx, null, bad);
  const folderRows = ctx.folders.all();
  const linked = new Map(folderRows.filter((f) => f.state === 'linked' && f.designId !== null).map((f) => [f.folder, f.designId!]));
  const topLevel = sortTopLevel(top, linked, new Set(folderRows.map((f) => f.folder)), only, rootIgnore.compiled, specialSaid);
  topLevel.notes.forEach(note);
  for (const folder of topLevel.proposals) {
    proposeDesign(ctx, folder);
    summary.proposedDesigns.push(folder);
  }
  const { toScan, heldTop } = topLevel;
  const held: HeldBackEntry[] = [...topLevel.held];
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
      ctx.reportOnce({ text: folderIgnore.problem, words: folderIgnore.problemWords ?? null }, `${folder}/${IGNORE_FILE}`);
      continue;
    }
    scanned.push(folder);
    const rules: HoldRules = { root: rootIgnore.compiled, folder: folderIgnore?.compiled ?? null, builtIn };
    rulesOfFolder.set(folder, rules);
    for (const bad of badNames) reportBadName(ctx, folder, bad);
    const sorted = sortFolder(folder, designId, entries, new Map(ctx.base.inFolder(folder).map((b) => [b.path, b])), rules, specialSaid);
    sorted.notes.forEach(note);
    held.push(...sorted.held);
    for (const path of sorted.heldSynced) heldSynced.add(path);
    for (const path of sorted.onDisk) onDisk.add(path);
    candidates.push(...sorted.candidates);
    for (const base of sorted.missing) missing.set(base.path, base);
    summary.files += sorted.files;
    summary.unchanged += sorted.unchanged;
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

  // 4. The state the decisions are taken on. Read once per scan, not once per file: the open queue items and (when a
  // new file may be a moved one) the synced files.
  const open = new Map<string, OpenSlot>();
  for (const item of ctx.queue.list({ states: ['running', 'waiting', 'attention'] })) {
    if (!item.path) continue;
    const slot = open.get(item.path) ?? { running: null, pending: null };
    if (item.state === 'running') slot.running = item;
    else slot.pending = item;
    open.set(item.path, slot);
  }
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
  // One read of each file gives its SHA-1 and, for a new name, the first bytes that tell an executable.
  const contents = await readContents(decidable.map((c) => ({ path: join(rootPath, c.path), size: c.entry.size })));
  const read: ReadCandidate[] = decidable.map((c, i) => ({ ...c, sha1: contents[i]!.sha1, refusal: c.base ? null : refusalOf(c.name, contents[i]!.head) }));
  const slotOf = (path: string) => open.get(path) ?? { running: null, pending: null };
  const latest = new Map<string, LatestItem | null>();
  for (const path of [...read.filter((c) => c.refusal !== null).map((c) => c.path), ...missing.keys()]) latest.set(path, ctx.queue.latestForPath(path));
  const published = new Map<number, string | null>();
  for (const c of read) if (!c.base && !published.has(c.designId)) published.set(c.designId, ctx.reviewBeforePublishing(c.designId));
  // A new file may be a synced one moved: the synced files by inode and content, and which of those it may be are gone.
  const mayBeMoved = read.filter((c) => !c.base && c.refusal === null && slotOf(c.path).running === null);
  const index = mayBeMoved.length > 0 ? indexBases(ctx.base.all()) : null;
  const elsewhere = index ? [...new Set(mayBeMoved.flatMap((c) => moveOptions(c, c.sha1, new Set(), index).map((b) => b.path)))].filter((path) => !missing.has(path)) : [];
  const elsewhereNow = await statEntries(elsewhere.map((path) => join(rootPath, path)));
  const pendingInFolders: QueueItem[] = ctx.queue.pendingInFolders(toScan.map((f) => f.folder));
  const lookFor = itemsToLookFor(pendingInFolders, onDisk);
  const lookForNow = await statEntries(lookFor.map((path) => join(rootPath, path)));
  return {
    rootPath,
    held,
    heldScope: only ? [...scanned, ...heldTop] : 'all',
    facts: {
      rootPath, decidable: read, missing, open, dismissed: ctx.queue.dismissedVersions(read.map((c) => c.path)), latest, published, index,
      goneElsewhere: new Set(elsewhere.filter((_, i) => !elsewhereNow[i])), rulesOfFolder, heldTop,
      rootRules: { root: rootIgnore.compiled, folder: null, builtIn }, heldSynced, baseCount: ctx.base.count(),
      allowManyMissing: options.allowManyMissing === true, pendingInFolders, onDisk, stillFiles: new Set(lookFor.filter((_, i) => lookForNow[i]?.type === 'file')),
    },
  };
}

/**
 * Applies the decisions in one transaction, with the list of what is held back: one durable commit
 * (synchronous=FULL) instead of one per file. Immediate: the write lock is taken (or waited for) at once, so that
 * another process's write (design-sync ignore add, the app) between its reads and writes cannot fail it half-way
 * with "database is locked".
 */
function applyScan(ctx: SyncContext, decisions: readonly ScanDecision[], summary: ScanSummary, alsoInTransaction: () => void): void {
  const events: SyncEvent[] = [];
  ctx.db.transaction(() => {
    for (const decision of decisions) {
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
    alsoInTransaction();
  }).immediate();
  for (const event of events) ctx.emit(event);
}

/** A name that is not valid UTF-8 names nothing a string can hold: reported once, never sent. */
function reportBadName(ctx: SyncContext, folder: string | null, bad: BadlyNamedEntry): void {
  const where = folder ? `${folder}/${bad.shownAs}` : bad.shownAs;
  const type = bad.type === 'directory' || bad.type === 'file' || bad.type === 'symlink' ? bad.type : 'other';
  ctx.reportOnce(folder
    ? said('activity.scan.badNameIn', { folder, type, shownAs: bad.shownAs, bytes: bad.bytes })
    : said('activity.scan.badNameAtTop', { type, shownAs: bad.shownAs, bytes: bad.bytes }), where);
}

function proposeDesign(ctx: SyncContext, folder: string): void {
  ctx.folders.setState(folder, 'proposed');
  const suggested = folder.normalize('NFC').replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 255) || folder;
  const item = ctx.queue.enqueue({
    kind: 'create-design', folder,
    payload: { name: suggested, excerpt: '', license: null, publish: false },
    attention: {
      kind: 'confirm-design',
      reason: said('queue.reason.newFolderProposed', { folder }),
    },
  });
  ctx.log('info', said('activity.sync.newFolderProposed', { folder }), folder);
  ctx.emit({ type: 'enqueued', item });
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
