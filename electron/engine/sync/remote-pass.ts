import { mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { engineLog, warnUnlessMissing } from '../log/engine-log';
import type { BaseFile } from '../sync-state/base-files';
import { describeFirstFill, emptyFirstFill, type FirstFill } from './first-fill';
import { downloadToTemp, readFolder, renameNoClobber, placeNew, sha1File, statEntry, type LocalEntry } from './local-files';
import { MASS_MISSING_MINIMUM, MASS_MISSING_RATIO } from './local-scan';
import { openItems } from './queue-lookups';
import { confirmGoneRemotely, listingCanJudge, readDesignListing, remoteKey, type DesignListing, type RemoteFile } from './remote-listing';
import type { RemoteSummary, SyncContext } from './sync-context';
import { conflictCopyName, localNameFor, nameKey, uniqueName } from './sync-names';

export { ensureDesignFolders, type OwnDesignRef } from './own-design-folders';

type LocalState = { state: 'missing' } | { state: 'unchanged'; entry: LocalEntry } | { state: 'changed'; entry: LocalEntry; sha1: string };

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
    ctx.stop(check.reason);
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
      const message = isServiceError(error, 'not-found')
        ? `The design of the folder ${folder} is no longer on the service (or no longer yours): the folder is kept as it is and not synced.`
        : `The files of the design of ${folder} could not be read (${isServiceError(error) ? error.problem.message : (error as Error).message}); tried again later.`;
      engineLog.warn('sync', `the files of the design of ${folder} could not be read`, error);
      ctx.reportOnce(message, folder);
      summary.warnings.push(message);
    }
  }
  const goneRemotely = lists.reduce((n, listing) => n + missingFrom(ctx, listing).length, 0);
  const total = ctx.base.count();
  if (goneRemotely > MASS_MISSING_MINIMUM && goneRemotely > total * MASS_MISSING_RATIO) {
    ctx.stop(`The service lists ${goneRemotely} of your ${total} synced files as gone at once: that looks like a broken answer, so nothing was moved to the trash. ` +
      'Sync is stopped; check your designs on the service, then start sync again.');
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

class DesignPass {
  private readonly folder: string;
  private readonly designId: number;

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

  async run(): Promise<void> {
    const { files, listedAt } = this.listing;
    const dir = join(this.root, this.folder);
    for (const base of this.ctx.base.ofDesign(this.designId)) {
      if (base.folder !== this.folder) continue;
      if (!listingCanJudge(this.listing, base)) {
        // Sent (or brought) after this listing was asked for: the listing cannot tell anything about it.
        this.summary.skipped++;
        continue;
      }
      try {
        await this.known(base, files.get(remoteKey(base.kind, base.remoteId)) ?? null);
      } catch (error) {
        this.fail(base.path, error);
      }
    }
    // A file the queue deleted on the service after the listing was asked for is not new there: it is gone.
    const deletedSince = this.ctx.queue.deletedOnServiceSince(this.designId, listedAt);
    const untracked = [...files.values()].filter((file) => !this.ctx.base.byRemote(file.kind, file.id) && !deletedSince.has(remoteKey(file.kind, file.id)));
    if (untracked.length === 0) return;
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      this.fail(this.folder, error);
      return;
    }
    for (const file of untracked) {
      try {
        await this.added(dir, file);
      } catch (error) {
        this.fail(`${this.folder}/${file.name}`, error);
      }
    }
  }

  private fail(path: string, error: unknown): void {
    if (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') || isServiceError(error, 'token-rejected')) throw error;
    const message = `${path}: could not bring the service's change into the folder (${(error as Error).message}); it is tried again at the next sync.`;
    this.summary.warnings.push(message);
    engineLog.warn('sync', message, error);
    // Said once a run: a watching engine meets the same failure at every rescan.
    this.ctx.reportOnce(message, path);
  }

  /** A file both sides had at the last sync. */
  private async known(base: BaseFile, file: RemoteFile | null): Promise<void> {
    const { running, pending } = openItems(this.ctx.queue, base.path);
    if (running) {
      this.summary.skipped++;
      return;
    }
    if (!file) return this.deletedRemotely(base, pending?.id ?? null);
    const metadataSame = file.updatedAt === base.remoteUpdatedAt && file.name === base.remoteName;
    if (metadataSame) {
      const local = await this.localState(base);
      const last = this.ctx.queue.latestForPath(base.path);
      if (local.state === 'missing' && last?.kind === 'delete-remote' && last.state === 'cancelled') {
        // The person turned down deleting it on the service: bring it back.
        await this.download(file, base.path, 'restore');
        this.ctx.log('info', `${base.path} was brought back from the service (you chose to keep it there).`, base.path);
      }
      return;
    }
    const local = await this.localState(base);
    let temp: { path: string; sha1: string; size: number } | null = null;
    try {
      let remoteSha = file.sha1;
      if (remoteSha === null && file.updatedAt !== base.remoteUpdatedAt) {
        temp = await this.fetch(file);
        remoteSha = temp.sha1;
      }
      if (this.syncedAgainMeanwhile(base)) return;
      const contentChanged = remoteSha !== null && remoteSha !== base.sha1;
      if (local.state === 'missing') {
        if (contentChanged) {
          if (pending) this.ctx.queue.cancel(pending.id);
          const placed = await this.place(file, base.path, temp, 'restore');
          temp = null;
          this.ctx.log('warning', `${base.path} was changed on the service after it was deleted here: the new version was brought back instead of deleting it.`, base.path);
          // Renamed on the service meanwhile (perhaps seen by an earlier pass while the file was gone here, which only
          // noted the name): the file brought back takes the service's name, or the two would never meet.
          if (placed) await this.renameLocal(base.path, file);
        } else {
          this.ctx.base.record({ ...base, remoteName: file.name, remoteUpdatedAt: file.updatedAt });
        }
        return;
      }
      if (!contentChanged) {
        // A rename on the service is followed here only while the file is unchanged here; until then the synced name stays
        // the old one, so that a later pass (once the change here is sent) still sees the rename to follow.
        const current = this.ctx.base.get(base.path)!;
        this.ctx.base.record({ ...current, remoteName: local.state === 'unchanged' ? file.name : current.remoteName, remoteUpdatedAt: file.updatedAt });
        if (file.name !== base.remoteName && local.state === 'unchanged') await this.renameLocal(base.path, file);
        return;
      }
      if (local.state === 'unchanged') {
        await this.place(file, base.path, temp, 'replace');
        temp = null;
        if (file.name !== base.remoteName) await this.renameLocal(base.path, file);
        return;
      }
      // Changed on both sides.
      if (local.sha1 === remoteSha) {
        if (pending) this.ctx.queue.cancel(pending.id);
        this.record(base.path, file, local.entry, local.sha1);
        this.summary.adopted++;
        this.ctx.log('info', `${base.path} was changed the same way here and on the service: nothing to send.`, base.path);
        // The record now holds the service's name: a rename there is followed now, or no later pass would.
        if (file.name !== base.remoteName) await this.renameLocal(base.path, file);
        return;
      }
      await this.conflict(base.path, file, temp, pending?.id ?? null);
      temp = null;
    } finally {
      if (temp) await unlink(temp.path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${temp.path}`));
    }
  }

  /**
   * A synced file the listing lacks. Taken for deleted on the service only once a read of the item itself says so
   * (404), and only while nothing synced it again meanwhile.
   */
  private async deletedRemotely(base: BaseFile, pendingId: number | null): Promise<void> {
    const check = await confirmGoneRemotely(this.client, base, this.signal);
    const now = this.ctx.base.get(base.path);
    if (check !== 'gone' || !now || now.remoteId !== base.remoteId || now.kind !== base.kind || now.syncedAt !== base.syncedAt) {
      this.summary.skipped++;
      if (check === 'still-there') this.ctx.log('info', `${base.path} is missing from the service's list of its design, but the service still has it: nothing was changed.`, base.path);
      return;
    }
    const local = await this.localState(base);
    if (this.syncedAgainMeanwhile(base)) return;
    if (local.state === 'missing') {
      if (pendingId !== null) this.ctx.queue.cancel(pendingId);
      this.ctx.base.remove(base.path);
      this.ctx.log('info', `${base.path} was deleted here and on the service.`, base.path);
      return;
    }
    if (local.state === 'unchanged') {
      if (pendingId !== null) this.ctx.queue.cancel(pendingId);
      const where = await this.ctx.trash(this.abs(base.path), this.root);
      this.ctx.base.remove(base.path);
      this.summary.trashed++;
      this.ctx.log('info', `${base.path} was deleted on the service: the file here was moved to ${where}.`, base.path);
      this.ctx.emit({ type: 'trashed', path: base.path, where });
      return;
    }
    // Deleted there, changed here: the change is kept and offered as a new file.
    this.ctx.base.remove(base.path);
    const item = this.ctx.queue.enqueue({
      kind: 'upload', path: base.path, folder: base.folder, designId: base.designId, fileKind: base.kind,
      payload: { name: leaf(base.path).normalize('NFC') }, file: { size: local.entry.size, mtimeMs: local.entry.mtimeMs, sha1: local.sha1 },
      attention: { kind: 'conflict', reason: `${base.path} was deleted on the service but changed here: your version is kept. Confirm to upload it again as a new file, or delete it.` },
    });
    this.ctx.log('warning', `${base.path} was deleted on the service but changed here: kept, waiting for you to upload it again or delete it.`, base.path);
    this.ctx.emit({ type: 'enqueued', item });
  }

  /** A file of the service not yet in the folder (or made on both sides under the same name). */
  private async added(dir: string, file: RemoteFile): Promise<void> {
    const entries = ((await readFolder(dir)) ?? []);
    if (this.recordedMeanwhile(file)) return;
    const name = localNameFor(file.kind, file);
    const clash = entries.find((entry) => nameKey(entry.name) === nameKey(name));
    const clashPath = clash ? `${this.folder}/${clash.name}` : null;
    if (clash && clashPath && !this.ctx.base.get(clashPath) && clash.type === 'file') {
      const { running, pending } = openItems(this.ctx.queue, clashPath);
      if (running) {
        // Probably this very file being uploaded: its upload records it.
        this.summary.skipped++;
        return;
      }
      const localSha = await sha1File(this.abs(clashPath));
      let temp: { path: string; sha1: string; size: number } | null = null;
      try {
        const remoteSha = file.sha1 ?? (temp = await this.fetch(file)).sha1;
        if (remoteSha !== localSha && !temp) temp = await this.fetch(file);
        if (this.recordedMeanwhile(file, clashPath)) return;
        if (remoteSha === localSha) {
          if (pending) this.ctx.queue.cancel(pending.id);
          const entry = await statEntry(this.abs(clashPath));
          this.record(clashPath, file, entry!, localSha);
          this.summary.adopted++;
          if (this.firstFill) {
            this.firstFill.adopted++;
            this.firstFill.folders.add(this.folder);
          } else {
            this.ctx.log('info', `${clashPath} is the same here and on the service: linked, nothing sent.`, clashPath);
          }
          return;
        }
        await this.conflict(clashPath, file, temp, pending?.id ?? null);
        temp = null;
      } finally {
        if (temp) await unlink(temp.path).catch(warnUnlessMissing('sync', `could not remove the temporary download ${temp.path}`));
      }
      return;
    }
    const target = clash ? uniqueName(name, (key) => entries.some((e) => nameKey(e.name) === key), true) : name;
    await this.download(file, `${this.folder}/${target}`, 'new');
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
    if (entry.size === base.size && entry.mtimeMs === Math.floor(base.mtimeMs)) return { state: 'unchanged', entry };
    const sha1 = await sha1File(this.abs(base.path));
    if (sha1 === base.sha1) {
      // Not over a record made meanwhile (an upload that ended while the file was read).
      if (sameRecord(this.ctx.base.get(base.path), base)) this.ctx.base.record({ ...base, size: entry.size, mtimeMs: entry.mtimeMs, inode: entry.inode });
      return { state: 'unchanged', entry };
    }
    return { state: 'changed', entry, sha1 };
  }

  private async fetch(file: RemoteFile): Promise<{ path: string; sha1: string; size: number }> {
    if (!file.url) throw new Error(`the service gives no address for ${file.name}`);
    const response = await this.client.download(file.url, this.signal);
    const dir = join(this.root, this.folder);
    await mkdir(dir, { recursive: true });
    return downloadToTemp(dir, response.body);
  }

  private async download(file: RemoteFile, path: string, why: 'new' | 'restore'): Promise<void> {
    await this.place(file, path, null, why);
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
      this.ctx.log('info', `${path} was changed on the service: the file here was updated.`, path);
    } else if (why !== 'conflict') {
      this.summary.downloaded++;
      if (why === 'new' && this.firstFill) {
        this.firstFill.downloaded++;
        this.firstFill.folders.add(this.folder);
      } else if (why === 'new') {
        this.ctx.log('info', `${path} was added on the service: downloaded.`, path);
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
    const reason = `${path} was changed both here and on the service. The service's version is now ${leaf(servicePath)}; yours was kept as ${leaf(copy)}. ` +
      'Merge your changes into it and delete the copy (or confirm to upload the copy as a new file).';
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
    this.ctx.log('info', `${path} was renamed on the service: renamed here to ${target}.`, toPath);
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
