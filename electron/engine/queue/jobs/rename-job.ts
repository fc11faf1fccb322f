import type { Document, Image } from '../../../../shared';
import { isServiceError } from '../../api/service-error';
import { serviceSha1 } from '../../api/tolerant-readers';
import { absolutePath, currentVersion, folderOf } from '../file-version';
import { designGone, designIdOf, fileKindOf, NO_DESIGN_YET, pathOf, type Job, type JobContext, type JobResult } from '../job';
import type { JobItem } from '../job-items';
import type { QueueItem } from '../queue-item';
import { said, type Said } from '../said';

type RenameItem = JobItem<'rename'>;

function remoteIdOf(item: QueueItem, ctx: JobContext, fromPath: string): number | null {
  return item.remoteId ?? ctx.baseFiles.get(fromPath)?.remoteId ?? ctx.baseFiles.get(pathOf(item))?.remoteId ?? null;
}

async function readRemote(ctx: JobContext, designId: number, kind: 'image' | 'document', remoteId: number): Promise<Image | Document> {
  return kind === 'image' ? ctx.client.getImage(designId, remoteId, ctx.signal) : ctx.client.getDocument(designId, remoteId, ctx.signal);
}

/**
 * The synced state follows the rename: the base moves to the new path, with the record's new name. Its time is taken
 * only when the service's file is still the synced one: a record replaced on the service before the rename keeps the
 * old time, so the next pass sees the change and brings it in (taken with the rename's time, it was never seen:
 * the sync fuzz test, seed 9604).
 */
async function moved(item: RenameItem, ctx: JobContext, remote: Image | Document, message: Said): Promise<JobResult> {
  const path = pathOf(item);
  const { fromPath } = item.payload;
  const kind = fileKindOf(item);
  const local = await currentVersion(absolutePath(ctx.root(), path));
  return {
    outcome: 'done', message,
    record: () => {
      const synced = ctx.baseFiles.get(fromPath) ?? ctx.baseFiles.byRemote(kind, remote.id);
      const sameFile = synced !== null && serviceSha1(remote) === synced.sha1;
      const changes = {
        remoteName: remote.name, ...(sameFile ? { remoteUpdatedAt: remote.updated_at } : {}), syncedAt: ctx.now(),
        ...(local ? { mtimeMs: local.mtimeMs, inode: local.inode } : {}),
      };
      if (ctx.baseFiles.get(fromPath)) {
        ctx.baseFiles.move(fromPath, path, changes);
        return;
      }
      const current = ctx.baseFiles.byRemote(kind, remote.id);
      if (current) ctx.baseFiles.record({ ...current, ...changes, path, folder: folderOf(path) });
    },
  };
}

/** A file renamed or moved within its design folder: PATCH the record's name only (no file), then move the base. */
export const renameJob: Job<'rename'> = {
  kind: 'rename',
  validationAttention: 'invalid-file',

  async run(item, ctx) {
    const path = pathOf(item);
    const kind = fileKindOf(item);
    const { fromPath, newName } = item.payload;
    const designId = designIdOf(item, ctx);
    if (designId === null) return NO_DESIGN_YET(item.folder ?? folderOf(path));
    const remoteId = remoteIdOf(item, ctx, fromPath);
    if (remoteId === null) {
      ctx.store.retarget(item.id, { kind: 'upload', remoteId: null });
      return { outcome: 'waiting', at: 0, reason: null };
    }
    if (!ctx.sending({ at: ctx.now(), name: newName, sha1: null, size: null, mtimeMs: null, inode: null })) return { outcome: 'cancelled', reason: said('queue.reason.cancelled') };
    if (kind === 'image') await ctx.client.updateImage(designId, remoteId, { name: newName }, undefined, { signal: ctx.signal });
    else await ctx.client.updateDocument(designId, remoteId, { name: newName }, undefined, { signal: ctx.signal });
    const remote = await readRemote(ctx, designId, kind, remoteId);
    return moved(item, ctx, remote, said('activity.queue.renamed', { from: fromPath, to: path }));
  },

  async reconcile(item, sent, ctx) {
    const kind = fileKindOf(item);
    const { fromPath } = item.payload;
    const designId = designIdOf(item, ctx);
    const remoteId = remoteIdOf(item, ctx, fromPath);
    if (designId === null || remoteId === null) return null;
    try {
      const remote = await readRemote(ctx, designId, kind, remoteId);
      return remote.name === sent.name ? moved(item, ctx, remote, said('activity.queue.alreadyRenamed', { from: fromPath, to: pathOf(item) })) : null;
    } catch (error) {
      if (isServiceError(error, 'not-found')) return null;
      throw error;
    }
  },

  /** The record is gone on the service: the file (at its new path) is uploaded as a new one. */
  async notFound(item, ctx): Promise<JobResult | null> {
    const gone = await designGone(item, ctx);
    if (gone) return gone;
    const { fromPath } = item.payload;
    ctx.store.sendAsNew(item.id, fromPath);
    ctx.log('warning', said('activity.queue.renameSourceGone', { from: fromPath, path: pathOf(item) }), pathOf(item));
    return { outcome: 'waiting', at: 0, reason: null };
  },
};
