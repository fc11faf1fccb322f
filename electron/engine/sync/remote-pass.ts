import { mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { engineLog, warnUnlessMissing } from '../log/engine-log';
import type { BaseFile } from '../sync-state/base-files';
import { describeFirstFill, emptyFirstFill, type FirstFill } from './first-fill';
import { downloadToTemp, readFolder, renameNoClobber, placeNew, sha1File, statEntry, type LocalEntry } from './local-files';
import { MASS_MISSING_MINIMUM, MASS_MISSING_RATIO } from './scan-decisions';
import { openItems } from './queue-lookups';
import { confirmGoneRemotely, listingCanJudge, readDesignListing, remoteKey, type DesignListing, type RemoteFile } from './remote-listing';
import {
  decideNewFiles, decideSyncedFiles, decisionPath, type ClashFacts, type FolderFacts, type LocalState, type NewFileFacts, type RemoteDecision, type SyncedFileFacts,
} from './remote-decisions';
import type { RemoteSummary, SyncContext } from './sync-context';
import { conflictCopyName, localNameFor, nameKey, uniqueName } from './sync-names';
import { said } from '../queue/said';
import { stopSaying } from './stop-reason';

export { ensureDesignFolders, type OwnDesignRef } from './own-design-folders';

const leaf = (path: string) => path.slice(path.indexOf('/') + 1);

/**
 * Brings changes made on the service into the folder, for every linked own design: new files are downloaded
 * (to a temporary name, then moved into place), changed ones replace an unchanged local copy, a file changed on
 * both sides keeps both copies, a file removed on the service goes to the trash. Never overwrites a local change,
 * never deletes one. Offline: throws the ServiceError (the pass is tried again later).
 */
export async function pullRemoteChanges(ctx: SyncContext, client: ServiceClient, options: { signal?: AbortSignal; designIds?: readonly number[]; newFolders?: readonly string[] } = {}): Promise<RemoteSummary> {
  const started = performance.now();
  const summary: RemoteSummary = { designs: 0, downloaded: 0, replaced: 0, renamed: 0, trashed: 0, conflicts: 0, adopted: 0, skipped: 0, warnings: [], durationMs: 0 };
  const finish = () => {
    summary.durationMs = Math.round(performance.now() - started);
    ctx.emit({ type: 'remote', summary });
    return summary;
  };
  const check = ctx.root.verify();
  if (!check.ok) {
    ctx.stop(check);
    return finish();
  }
  const rootPath = check.root.path;
  const linked = ctx.folders.all().flatMap((f) => (f.state === 'linked' && f.designId !== null && (!options.designIds || options.designIds.includes(f.designId)) ? [{ folder: f.folder, designId: f.designId }] : []));

  // Read every list first: a pass that would trash many files at once is refused before anything moves.
  const lists: DesignListing[] = [];
  for (const { folder, designId } of linked) {
    try {
      lists.push(await readDesignListing(client, folder, designId, ctx.now, options.signal));
    } catch (error) {
      if (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') || isServiceError(error, 'token-rejected')) throw error;
      const line = isServiceError(error, 'not-found')
        ? said('activity.sync.folderDesignGone', { folder })
        : said('activity.sync.listingUnreadable', { folder, why: isServiceError(error) ? error.problem.message : (error as Error).message });
      engineLog.warn('sync', `the files of the design of ${folder} could not be read`, error);
      ctx.reportOnce(line, folder);
      summary.warnings.push(line);
    }
  }
  const goneRemotely = lists.reduce((n, listing) => n + missingFrom(ctx, listing).length, 0);
  const total = ctx.base.count();
  if (goneRemotely > MASS_MISSING_MINIMUM && goneRemotely > total * MASS_MISSING_RATIO) {
    ctx.stop(stopSaying({ id: 'sync.detail.manyGoneOnService', values: { gone: goneRemotely, total } }));
    return finish();
  }

  // Folders made in this pass (a first sync, a new design) are filled quietly: one line for all, not one a file.
  const firstFill = emptyFirstFill();
  for (const listing of lists) {
    if (options.signal?.aborted || !ctx.root.verify().ok) break;
    summary.designs++;
    const quiet = options.newFolders?.includes(listing.folder) ? firstFill : null;
    const pass = new DesignPass(ctx, client, rootPath, listing, summary, quiet, options.signal);
    await pass.run();
  }
  if (firstFill.downloaded + firstFill.adopted > 0) ctx.log('info', describeFirstFill(firstFill));
  return finish();
}

/** The same synced state of the same file: nothing recorded it again since `before` was read. */
function sameRecord(now: BaseFile | null, before: BaseFile): boolean {
  return now !== null && now.kind === before.kind && now.remoteId === before.remoteId && now.syncedAt === before.syncedAt &&
    now.sha1 === before.sha1 && now.remoteUpdatedAt === before.remoteUpdatedAt && now.remoteName === before.remoteName;
}

/** The synced files of a listed design that the listing lacks, leaving out those it is too old to judge. */
function missingFrom(ctx: SyncContext, listing: DesignListing): BaseFile[] {
  return ctx.base.ofDesign(listing.designId)
    .filter((base) => !listing.files.has(remoteKey(base.kind, base.remoteId)) && listingCanJudge(listing, base));
}

type Fetched = { path: string; sha1: string; size: number };

class DesignPass {
  private readonly folder: string;
  private readonly designId: number;
  /** Copies of the service's files fetched to compare them, by remoteKey: used by the decision that places them. */
  private readonly fetched = new Map<string, Fetched>();

  constructor(
    private readonly ctx: SyncContext, private readonly client: ServiceClient, private readonly root: string,
    private readonly listing: DesignListing, private readonly summary: RemoteSummary,
    private readonly firstFill: FirstFill | null, private readonly signal?: AbortSignal,
  ) {
    this.folder = listing.folder;
    this.designId = listing.designId;
  }

  private abs(path: string): string {
    return join(this.root, path);
  }

  /**
   * The synced files first (collected, decided, applied), then the service's files no synced file is: those are
   * looked at on the folder as the first decisions left it.
   */
  async run(): Promise<void> {
    try {
      const synced: SyncedFileFacts[] = [];
      for (const base of this.ctx.base.ofDesign(this.designId)) {
        if (base.folder !== this.folder) continue;
        try {
          synced.push(await this.collectSynced(base));
        } catch (error) {
          this.fail(base.path, error);
        }
      }
      await this.applyAll(decideSyncedFiles(synced));
      await this.discardFetched();

      // A file the queue deleted on the service after the listing was asked for is not new there: it is gone.
      const deletedSince = this.ctx.queue.deletedOnServiceSince(this.designId, this.listing.listedAt);
      const untracked = [...this.listing.files.values()].filter((file) => !this.ctx.base.byRemote(file.kind, file.id) && !deletedSince.has(remoteKey(file.kind, file.id)));
      if (untracked.length === 0) return;
      const dir = join(this.root, this.folder);
      try {
        await mkdir(dir, { recursive: true });
      } catch (error) {
        this.fail(this.folder, error);
        return;
      }
      const folder = await this.collectFolder(dir, untracked);
      const added: NewFileFacts[] = [];
      for (const file of untracked) {
        try {
          added.push(await this.collectNew(folder, file));
        } catch (error) {
          this.fail(`${this.folder}/${file.name}`, error);
        }
      }
      await this.applyAll(decideNewFiles(folder, added));
    } finally {
      await this.discardFetched();
    }
  }

  /** The copies fetched to compare that no decision placed. */
  private async discardFetched(): Promise<void> {
    const temps = [...this.fetched.values()];
    this.fetched.clear();
    for (const temp of temps) await unlink(temp.path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${temp.path}`));
  }

  private async applyAll(decisions: readonly RemoteDecision[]): Promise<void> {
    for (const decision of decisions) {
      try {
        await this.apply(decision);
      } catch (error) {
        this.fail(decision.type === 'download' || decision.type === 'adopt-new' || decision.type === 'conflict-new' ? `${this.folder}/${decision.file.name}` : decisionPath(decision), error);
      }
    }
  }

  private fail(path: string, error: unknown): void {
    if (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') || isServiceError(error, 'token-rejected')) throw error;
    const line = said('activity.sync.changeNotBrought', { path, why: (error as Error).message });
    this.summary.warnings.push(line);
    engineLog.warn('sync', line.text, error);
    // Said once a run: a watching engine meets the same failure at every rescan.
    this.ctx.reportOnce(line, path);
  }

  /** What the pass needs to decide on a file both sides had at the last sync, read in the order the decision needs it. */
  private async collectSynced(base: BaseFile): Promise<SyncedFileFacts> {
    const file = this.listing.files.get(remoteKey(base.kind, base.remoteId)) ?? null;
    const facts: SyncedFileFacts = {
      base, canJudge: listingCanJudge(this.listing, base), listed: file, running: false, pendingId: null,
      deleteTurnedDown: false, gone: null, local: null, remoteSha: file?.sha1 ?? null,
    };
    // Sent (or brought) after this listing was asked for: the listing cannot tell anything about it.
    if (!facts.canJudge) return facts;
    const { running, pending } = openItems(this.ctx.queue, base.path);
    facts.running = running !== null;
    facts.pendingId = pending?.id ?? null;
    if (running) return facts;
    if (!file) {
      // Taken for deleted on the service only once a read of the item itself says so (404).
      facts.gone = await confirmGoneRemotely(this.client, base, this.signal);
      if (facts.gone === 'gone') facts.local = await this.localState(base);
      return facts;
    }
    facts.local = await this.localState(base);
    if (file.updatedAt === base.remoteUpdatedAt && file.name === base.remoteName) {
      const last = this.ctx.queue.latestForPath(base.path);
      facts.deleteTurnedDown = last?.kind === 'delete-remote' && last.state === 'cancelled';
      return facts;
    }
    if (file.sha1 === null && file.updatedAt !== base.remoteUpdatedAt) facts.remoteSha = (await this.fetchOnce(file)).sha1;
    return facts;
  }

  /** The folder as it is before the service's new files come in, and the local files they would meet under their names. */
  private async collectFolder(dir: string, untracked: readonly RemoteFile[]): Promise<FolderFacts & { clashes: Map<string, ClashFacts> }> {
    const entries = (await readFolder(dir)) ?? [];
    const clashes = new Map<string, ClashFacts>();
    for (const file of untracked) {
      const key = nameKey(localNameFor(file.kind, file));
      const entry = entries.find((e) => nameKey(e.name) === key);
      if (!entry) continue;
      const path = `${this.folder}/${entry.name}`;
      if (clashes.has(path)) continue;
      const synced = this.ctx.base.get(path) !== null;
      const { running, pending } = synced || entry.type !== 'file' ? { running: null, pending: null } : openItems(this.ctx.queue, path);
      clashes.set(path, { synced, running: running !== null, pendingId: pending?.id ?? null, sha1: null, entry });
    }
    return { folder: this.folder, entries, clashes };
  }

  /** A file of the service not yet in the folder: its content's SHA-1 when it meets an unsynced local file of its name. */
  private async collectNew(folder: FolderFacts & { clashes: Map<string, ClashFacts> }, file: RemoteFile): Promise<NewFileFacts> {
    const key = nameKey(localNameFor(file.kind, file));
    const entry = folder.entries.find((e) => nameKey(e.name) === key);
    const clash = entry ? folder.clashes.get(`${this.folder}/${entry.name}`) : undefined;
    if (!entry || !clash || clash.synced || entry.type !== 'file' || clash.running) return { file, remoteSha: file.sha1 };
    if (clash.sha1 === null) clash.sha1 = await sha1File(this.abs(`${this.folder}/${entry.name}`));
    return { file, remoteSha: file.sha1 ?? (await this.fetchOnce(file)).sha1 };
  }

  private async apply(decision: RemoteDecision): Promise<void> {
    switch (decision.type) {
      case 'leave':
        this.summary.skipped++;
        if (decision.reason === 'still-on-service') {
          this.ctx.log('info', said('activity.sync.missingFromListing', { path: decision.path }), decision.path);
        }
        return;
      case 'restat':
        this.restat(decision.base, decision.restat);
        return;
      case 'restore':
        // The person turned down deleting it on the service: bring it back.
        await this.place(decision.file, decision.base.path, this.takeFetched(decision.file), 'restore');
        this.ctx.log('info', said('activity.sync.broughtBack', { path: decision.base.path }), decision.base.path);
        return;
      case 'download':
        if (this.recordedMeanwhile(decision.file)) return;
        await this.place(decision.file, decision.path, this.takeFetched(decision.file), 'new');
        return;
      case 'adopt-new':
      case 'conflict-new':
        return this.meetLocal(decision);
      default:
        return this.applySynced(decision);
    }
  }

  /** A decision on a synced file, taken on its record as read: left to the next pass when an upload recorded it meanwhile. */
  private async applySynced(decision: Extract<RemoteDecision, { base: BaseFile }>): Promise<void> {
    const { base } = decision;
    if (decision.restat) this.restat(base, decision.restat);
    if (this.syncedAgainMeanwhile(base)) return;
    switch (decision.type) {
      case 'bring-back': {
        if (decision.pendingId !== null) this.ctx.queue.cancel(decision.pendingId);
        const placed = await this.place(decision.file, base.path, this.takeFetched(decision.file), 'restore');
        this.ctx.log('warning', said('activity.sync.changedAfterDeletedHere', { path: base.path }), base.path);
        // Renamed on the service meanwhile (perhaps seen by an earlier pass while the file was gone here, which only
        // noted the name): the file brought back takes the service's name, or the two would never meet.
        if (placed) await this.renameLocal(base.path, decision.file);
        return;
      }
      case 'metadata': {
        const { file } = decision;
        if (decision.local === 'missing') {
          this.ctx.base.record({ ...base, remoteName: file.name, remoteUpdatedAt: file.updatedAt });
          return;
        }
        // A rename on the service is followed here only while the file is unchanged here; until then the synced name stays
        // the old one, so that a later pass (once the change here is sent) still sees the rename to follow.
        const current = this.ctx.base.get(base.path)!;
        const unchanged = decision.local === 'unchanged';
        this.ctx.base.record({ ...current, remoteName: unchanged ? file.name : current.remoteName, remoteUpdatedAt: file.updatedAt });
        if (file.name !== base.remoteName && unchanged) await this.renameLocal(base.path, file);
        return;
      }
      case 'replace':
        await this.place(decision.file, base.path, this.takeFetched(decision.file), 'replace');
        if (decision.file.name !== base.remoteName) await this.renameLocal(base.path, decision.file);
        return;
      case 'adopt-synced':
        if (decision.pendingId !== null) this.ctx.queue.cancel(decision.pendingId);
        this.record(base.path, decision.file, decision.entry, decision.sha1);
        this.summary.adopted++;
        this.ctx.log('info', said('activity.sync.sameChange', { path: base.path }), base.path);
        // The record now holds the service's name: a rename there is followed now, or no later pass would.
        if (decision.file.name !== base.remoteName) await this.renameLocal(base.path, decision.file);
        return;
      case 'conflict-synced':
        await this.conflict(base.path, decision.file, this.takeFetched(decision.file), decision.pendingId);
        return;
      case 'forget':
        if (decision.pendingId !== null) this.ctx.queue.cancel(decision.pendingId);
        this.ctx.base.remove(base.path);
        this.ctx.log('info', said('activity.sync.deletedBoth', { path: base.path }), base.path);
        return;
      case 'trash': {
        if (decision.pendingId !== null) this.ctx.queue.cancel(decision.pendingId);
        const where = await this.ctx.trash(this.abs(base.path), this.root);
        this.ctx.base.remove(base.path);
        this.summary.trashed++;
        this.ctx.log('info', said('activity.sync.deletedThereTrashed', { path: base.path, where }), base.path);
        this.ctx.emit({ type: 'trashed', path: base.path, where });
        return;
      }
      case 'offer-again': {
        // Deleted there, changed here: the change is kept and offered as a new file.
        this.ctx.base.remove(base.path);
        const item = this.ctx.queue.enqueue({
          kind: 'upload', path: base.path, folder: base.folder, designId: base.designId, fileKind: base.kind,
          payload: { name: leaf(base.path).normalize('NFC') }, file: { size: decision.entry.size, mtimeMs: decision.entry.mtimeMs, sha1: decision.sha1 },
          attention: { kind: 'conflict', reason: said('queue.reason.deletedThereChangedHere', { path: base.path }) },
        });
        this.ctx.log('warning', said('activity.sync.deletedThereChangedHere', { path: base.path }), base.path);
        this.ctx.emit({ type: 'enqueued', item });
        return;
      }
      case 'restat':
        return;
    }
  }

  /** A file of the service made here too under the same name, not synced: linked when the same, else both kept. */
  private async meetLocal(decision: Extract<RemoteDecision, { type: 'adopt-new' | 'conflict-new' }>): Promise<void> {
    const { file, path } = decision;
    if (this.recordedMeanwhile(file, path)) return;
    if (decision.pendingId !== null && decision.type === 'adopt-new') this.ctx.queue.cancel(decision.pendingId);
    if (decision.type === 'conflict-new') {
      await this.conflict(path, file, this.takeFetched(file), decision.pendingId);
      return;
    }
    const entry = await statEntry(this.abs(path));
    this.record(path, file, entry!, decision.sha1);
    this.summary.adopted++;
    if (this.firstFill) {
      this.firstFill.adopted++;
      this.firstFill.folders.add(this.folder);
    } else {
      this.ctx.log('info', said('activity.sync.sameBothLinked', { path }), path);
    }
  }

  /** The same content under a new size/mtime/inode: recorded, but not over a record made meanwhile (an upload that ended while the file was read). */
  private restat(base: BaseFile, entry: LocalEntry): void {
    if (sameRecord(this.ctx.base.get(base.path), base)) this.ctx.base.record({ ...base, size: entry.size, mtimeMs: entry.mtimeMs, inode: entry.inode });
  }

  /**
   * The service's file was recorded as synced since the listing was read, or the local file it clashes with was: an
   * upload that ended meanwhile. This pass's view of both is out of date; the next pass sees them as they are now.
   * (Taken for another file of the same name, it was downloaded beside the local one and took that one's record,
   * so the local file was sent a second time.)
   */
  private recordedMeanwhile(file: RemoteFile, clashPath?: string): boolean {
    if (!this.ctx.base.byRemote(file.kind, file.id) && !(clashPath && this.ctx.base.get(clashPath))) return false;
    this.summary.skipped++;
    return true;
  }

  /** The synced file's record changed since this pass read it (an upload of it ended meanwhile): left to the next pass. */
  private syncedAgainMeanwhile(base: BaseFile): boolean {
    if (sameRecord(this.ctx.base.get(base.path), base)) return false;
    this.summary.skipped++;
    return true;
  }

  /** What the local file is, compared with the last synced state (hashing only when size or mtime moved). */
  private async localState(base: BaseFile): Promise<LocalState> {
    const entry = await statEntry(this.abs(base.path));
    if (!entry || entry.type !== 'file') return { state: 'missing' };
    if (entry.size === base.size && entry.mtimeMs === Math.floor(base.mtimeMs)) return { state: 'unchanged', entry, restat: false };
    const sha1 = await sha1File(this.abs(base.path));
    if (sha1 === base.sha1) return { state: 'unchanged', entry, restat: true };
    return { state: 'changed', entry, sha1 };
  }

  /** A copy of the service's file, fetched to compare it: kept until the decision that places it (or the end of the pass). */
  private async fetchOnce(file: RemoteFile): Promise<Fetched> {
    const key = remoteKey(file.kind, file.id);
    const known = this.fetched.get(key);
    if (known) return known;
    const temp = await this.fetch(file);
    this.fetched.set(key, temp);
    return temp;
  }

  /** The copy fetched while collecting, handed over to the step that places it (null: fetched then). */
  private takeFetched(file: RemoteFile): Fetched | null {
    const key = remoteKey(file.kind, file.id);
    const temp = this.fetched.get(key) ?? null;
    this.fetched.delete(key);
    return temp;
  }

  private async fetch(file: RemoteFile): Promise<Fetched> {
    if (!file.url) throw new Error(`the service gives no address for ${file.name}`);
    const response = await this.client.download(file.url, this.signal);
    const dir = join(this.root, this.folder);
    await mkdir(dir, { recursive: true });
    return downloadToTemp(dir, response.body);
  }

  /**
   * Moves a downloaded copy into place: a new name only if free; over the local file only while that is still
   * the synced version (checked again right before). False when it was not placed (looked at again next pass).
   */
  private async place(file: RemoteFile, path: string, temp: { path: string; sha1: string; size: number } | null, why: 'new' | 'restore' | 'replace' | 'conflict'): Promise<boolean> {
    const fetched = temp ?? await this.fetch(file);
    const target = this.abs(path);
    if (why === 'new' && this.recordedMeanwhile(file)) {
      await unlink(fetched.path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${fetched.path}`));
      return false;
    }
    if (why === 'replace') {
      const base = this.ctx.base.get(path);
      const now = await statEntry(target);
      if (!base || !now || now.size !== base.size || now.mtimeMs !== Math.floor(base.mtimeMs)) {
        await unlink(fetched.path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${fetched.path}`));
        this.summary.skipped++;
        return false; // changed meanwhile: the next pass sees a conflict
      }
      await rename(fetched.path, target);
    } else if (!(await placeNew(fetched.path, target))) {
      this.summary.skipped++;
      return false; // a file appeared under that name meanwhile: looked at next pass
    }
    const entry = await statEntry(target);
    this.record(path, file, entry!, fetched.sha1);
    if (why === 'replace') {
      this.summary.replaced++;
      this.ctx.log('info', said('activity.sync.updatedHere', { path }), path);
    } else if (why !== 'conflict') {
      this.summary.downloaded++;
      if (why === 'new' && this.firstFill) {
        this.firstFill.downloaded++;
        this.firstFill.folders.add(this.folder);
      } else if (why === 'new') {
        this.ctx.log('info', said('activity.sync.downloaded', { path }), path);
      }
    }
    this.ctx.emit({ type: 'downloaded', path, replaced: why === 'replace' });
    return true;
  }

  /** Both sides changed: the local version is kept under a conflict name, the service's takes the name. */
  private async conflict(path: string, file: RemoteFile, temp: { path: string; sha1: string; size: number } | null, pendingId: number | null): Promise<void> {
    const fetched = temp ?? await this.fetch(file);
    if (pendingId !== null) this.ctx.queue.cancel(pendingId);
    const name = leaf(path);
    const at = new Date(this.ctx.now());
    let copy = '';
    for (let n = 1; ; n++) {
      copy = `${this.folder}/${conflictCopyName(name, at, n)}`;
      if (await renameNoClobber(this.abs(path), this.abs(copy))) break;
    }
    // Renamed on the service too: its version takes its new name (its record holds that name, so no later pass would).
    const servicePath = (await this.place(file, path, fetched, 'conflict')) ? (await this.renameLocal(path, file)) ?? path : path;
    const copyEntry = await statEntry(this.abs(copy));
    this.summary.conflicts++;
    const reason = said('queue.reason.conflict', { path, service: leaf(servicePath), copy: leaf(copy) });
    const item = this.ctx.queue.enqueue({
      kind: 'upload', path: copy, folder: this.folder, designId: this.designId, fileKind: file.kind,
      payload: { name: leaf(copy).normalize('NFC'), conflictOf: servicePath, localChangedAt: copyEntry?.mtimeMs ?? null, remoteChangedAt: file.updatedAt },
      file: copyEntry ? { size: copyEntry.size, mtimeMs: copyEntry.mtimeMs, sha1: await sha1File(this.abs(copy)) } : null,
      attention: { kind: 'conflict', reason },
    });
    this.ctx.log('warning', reason, path);
    this.ctx.emit({ type: 'conflict', path, copyPath: copy });
    this.ctx.emit({ type: 'enqueued', item });
  }

  /** The service renamed a file: the local one follows when its new name is free. The path it now has, null when it did not move. */
  private async renameLocal(path: string, file: RemoteFile): Promise<string | null> {
    const dir = join(this.root, this.folder);
    const entries = (await readFolder(dir)) ?? [];
    const wanted = localNameFor(file.kind, file);
    if (nameKey(wanted) === nameKey(leaf(path))) return null;
    const target = uniqueName(wanted, (key) => entries.some((e) => nameKey(e.name) === key), true);
    const toPath = `${this.folder}/${target}`;
    if (!(await renameNoClobber(this.abs(path), this.abs(toPath)))) return null;
    const entry = await statEntry(this.abs(toPath));
    this.ctx.base.move(path, toPath, entry
      ? { remoteName: file.name, remoteUpdatedAt: file.updatedAt, mtimeMs: entry.mtimeMs, inode: entry.inode }
      : { remoteName: file.name, remoteUpdatedAt: file.updatedAt });
    this.summary.renamed++;
    this.ctx.log('info', said('activity.sync.renamedHere', { path, target }), toPath);
    this.ctx.emit({ type: 'renamed-local', fromPath: path, toPath });
    return toPath;
  }

  private record(path: string, file: RemoteFile, entry: LocalEntry, sha1: string): void {
    this.ctx.base.record({
      path, folder: this.folder, designId: this.designId, kind: file.kind, remoteId: file.id, remoteName: file.name,
      remoteUpdatedAt: file.updatedAt, size: entry.size, mtimeMs: entry.mtimeMs, inode: entry.inode, sha1, syncedAt: this.ctx.now(),
    });
  }
}
