import type { Document, Image } from '../../../../shared';
import { isServiceError } from '../../api/service-error';
import type { BaseFile } from '../../sync-state/base-files';
import { currentVersion, folderOf, sameVersion } from '../file-version';
import {
  createdSince, designGone, designIdOf, fileKindOf, isJobResult, NO_DESIGN_YET, pathOf, prepareFile, type Job, type JobContext, type JobResult,
} from '../job';
import type { QueueItem } from '../queue-item';
import { said } from '../said';
import { startStreamedSend } from '../streamed-file';
import { changedOnService } from './remote-content';

async function readRemote(ctx: JobContext, designId: number, kind: 'image' | 'document', remoteId: number): Promise<Image | Document> {
  return kind === 'image' ? ctx.client.getImage(designId, remoteId, ctx.signal) : ctx.client.getDocument(designId, remoteId, ctx.signal);
}

function remoteIdOf(item: QueueItem, ctx: JobContext): number | null {
  return item.remoteId ?? ctx.baseFiles.get(pathOf(item))?.remoteId ?? null;
}

/** A changed file already on the service: PATCH its record with the new file; the service keeps the record's name. */
export const replaceJob: Job<'replace'> = {
  kind: 'replace',
  validationAttention: 'invalid-file',

  async run(item, ctx) {
    const path = pathOf(item);
    const kind = fileKindOf(item);
    const designId = designIdOf(item, ctx);
    if (designId === null) return NO_DESIGN_YET(item.folder ?? folderOf(path));
    const remoteId = remoteIdOf(item, ctx);
    if (remoteId === null) {
      ctx.store.retarget(item.id, { kind: 'upload', remoteId: null });
      return { outcome: 'waiting', at: 0, reason: null };
    }
    const base = ctx.baseFiles.get(path);
    // Unchanged since it was synced only if of the same size: then the hash is read first, to tell.
    const file = await prepareFile(item, kind, ctx, (version) => base !== null && base.remoteId === remoteId && base.size === version.size);
    if (isJobResult(file)) return file;
    if (base && base.remoteId === remoteId && base.sha1 === file.sha1) {
      return { outcome: 'done', message: said('activity.queue.unchangedSinceSynced', { path }), record: () => ctx.baseFiles.record({ ...base, size: file.version.size, mtimeMs: file.version.mtimeMs, inode: file.version.inode, syncedAt: ctx.now() }) };
    }

    // Changed on the service too since the last sync: sending would overwrite the service's version (a lost update).
    // Held for the person; the next pass keeps both (the service's under the name, this one as a conflicted copy).
    if (base && base.remoteId === remoteId && await changedOnService(ctx, await readRemote(ctx, designId, kind, remoteId), base)) {
      return {
        outcome: 'attention', attention: 'conflict',
        reason: said('queue.reason.changedOnServiceToo', { path }),
      };
    }
    const send = startStreamedSend(file, null, ctx);
    if (!send) return { outcome: 'cancelled', reason: said('queue.reason.cancelled') };
    const options = { onProgress: (p: { sentBytes: number; totalBytes: number }) => ctx.progress(p.sentBytes, p.totalBytes), signal: ctx.signal };
    if (kind === 'image') await ctx.client.updateImage(designId, remoteId, {}, send.upload, options);
    else await ctx.client.updateDocument(designId, remoteId, {}, send.upload, options);
    // The PATCH answers 204: read the record back for its name and time, as the base keeps them.
    const remote = await readRemote(ctx, designId, kind, remoteId);
    const after = await currentVersion(file.path);
    if (!after || !sameVersion(after, file.version)) ctx.log('info', said('activity.queue.changedWhileUploading', { path }), path);
    return {
      outcome: 'done', message: said('activity.queue.updated', { path }),
      record: () => ctx.baseFiles.record({
        // The name this file was synced under: a rename made on the service meanwhile is left for the next pass to follow.
        path, folder: item.folder ?? folderOf(path), designId, kind, remoteId, remoteName: base?.remoteName ?? remote.name, remoteUpdatedAt: remote.updated_at,
        size: file.version.size, mtimeMs: file.version.mtimeMs, inode: file.version.inode, sha1: send.sha1(), syncedAt: ctx.now(),
      }),
    };
  },

  async reconcile(item, sent, ctx) {
    const path = pathOf(item);
    const kind = fileKindOf(item);
    const designId = designIdOf(item, ctx);
    const remoteId = remoteIdOf(item, ctx);
    // An attempt without a hash was never read whole, so the service never had all of it (streamed-file.ts).
    if (designId === null || remoteId === null || sent.sha1 === null || sent.size === null || sent.mtimeMs === null) return null;
    let remote: Image | Document;
    try {
      remote = await readRemote(ctx, designId, kind, remoteId);
    } catch (error) {
      if (isServiceError(error, 'not-found')) return null;
      throw error;
    }
    const applied = kind === 'document' ? (remote as Document).modelhash === sent.sha1 : createdSince(remote.updated_at, sent.at);
    if (!applied) return null;
    const base: BaseFile = {
      path, folder: item.folder ?? folderOf(path), designId, kind, remoteId, remoteName: remote.name, remoteUpdatedAt: remote.updated_at,
      size: sent.size, mtimeMs: sent.mtimeMs, inode: sent.inode, sha1: sent.sha1, syncedAt: ctx.now(),
    };
    if (item.fileSize === null || sameVersion({ size: sent.size, mtimeMs: sent.mtimeMs }, { size: item.fileSize, mtimeMs: item.fileMtimeMs })) {
      return { outcome: 'done', message: said('activity.queue.alreadyUpdated', { path }), record: () => ctx.baseFiles.record(base) };
    }
    ctx.store.alreadySent(item.id, base);
    return { outcome: 'waiting', at: 0, reason: null };
  },

  /** The design is there but the record is gone (deleted on the service): the local file is sent again as a new one. */
  async notFound(item, ctx): Promise<JobResult | null> {
    const gone = await designGone(item, ctx);
    if (gone) return gone;
    const path = pathOf(item);
    ctx.store.sendAsNew(item.id, path);
    ctx.log('warning', said('activity.queue.deletedThereChangedHere', { path }), path);
    return { outcome: 'waiting', at: 0, reason: null };
  },
};
