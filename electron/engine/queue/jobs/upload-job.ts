import type { CreatedDocument, Document, Image } from '../../../../shared';
import type { BaseFile } from '../../sync-state/base-files';
import { currentVersion, folderOf, sameVersion } from '../file-version';
import {
  createdSince, designGone, designIdOf, fileKindOf, isJobResult, NO_DESIGN_YET, pathOf, prepareFile, type Job, type JobContext, type JobResult,
} from '../job';
import type { QueueItem, SentAttempt } from '../queue-item';
import { said } from '../said';
import { startStreamedSend } from '../streamed-file';

type Remote = Image | Document | CreatedDocument;

function baseOf(item: QueueItem, designId: number, kind: 'image' | 'document', remote: Remote, sent: { size: number; mtimeMs: number; inode: string | null; sha1: string }, now: number): BaseFile {
  const path = pathOf(item);
  return {
    path, folder: item.folder ?? folderOf(path), designId, kind, remoteId: remote.id, remoteName: remote.name,
    remoteUpdatedAt: remote.updated_at, size: sent.size, mtimeMs: sent.mtimeMs, inode: sent.inode, sha1: sent.sha1, syncedAt: now,
  };
}

/** A new file of a linked folder: POST it as an image or a document of the folder's design (spec §4.2, §4.3). */
export const uploadJob: Job<'upload'> = {
  kind: 'upload',
  validationAttention: 'invalid-file',

  async run(item, ctx) {
    const path = pathOf(item);
    const kind = fileKindOf(item);
    const designId = designIdOf(item, ctx);
    if (designId === null) return NO_DESIGN_YET(item.folder ?? folderOf(path));
    // Already synced once (e.g. an earlier upload of this path finished meanwhile): this is a change of that record.
    const base = ctx.baseFiles.get(path);
    const synced = base !== null && base.designId === designId && base.kind === kind;
    const file = await prepareFile(item, kind, ctx, () => synced);
    if (isJobResult(file)) return file;
    if (base && synced) {
      if (base.sha1 === file.sha1) {
        return { outcome: 'done', message: said('activity.queue.alreadyThere', { path }), record: () => ctx.baseFiles.record({ ...base, size: file.version.size, mtimeMs: file.version.mtimeMs, inode: file.version.inode, syncedAt: ctx.now() }) };
      }
      ctx.store.retarget(item.id, { kind: 'replace', remoteId: base.remoteId, designId });
      return { outcome: 'waiting', at: 0, reason: null };
    }

    // The name the service gives the record (the folder side passes the file name normalized to NFC).
    const name = item.payload.name || file.fileName;
    const send = startStreamedSend(file, name, ctx);
    if (!send) return { outcome: 'cancelled', reason: said('queue.reason.cancelled') };
    const options = { onProgress: (p: { sentBytes: number; totalBytes: number }) => ctx.progress(p.sentBytes, p.totalBytes), signal: ctx.signal };
    const remote: Remote = kind === 'image'
      ? await ctx.client.uploadImage(designId, send.upload, { name }, options)
      : await ctx.client.uploadDocument(designId, send.upload, { name }, options);

    // The base is the version that was sent: a change made while it was uploading is seen by the next scan and sent after.
    const after = await currentVersion(file.path);
    if (!after || !sameVersion(after, file.version)) ctx.log('info', said('activity.queue.changedWhileUploading', { path }), path);
    return {
      outcome: 'done', message: said('activity.queue.uploaded', { path }),
      record: () => ctx.baseFiles.record(baseOf(item, designId, kind, remote, { ...file.version, sha1: send.sha1() }, ctx.now())),
    };
  },

  async reconcile(item, sent, ctx) {
    const path = pathOf(item);
    const kind = fileKindOf(item);
    const designId = designIdOf(item, ctx);
    // An attempt without a hash was never read whole, so the service never had all of it (streamed-file.ts).
    if (designId === null || sent.sha1 === null || sent.size === null || sent.mtimeMs === null) return null;
    const found = await findUploaded(ctx, designId, kind, path, sent);
    if (!found) return null;
    const base = baseOf(item, designId, kind, found, { size: sent.size, mtimeMs: sent.mtimeMs, inode: sent.inode, sha1: sent.sha1 }, ctx.now());
    if (item.fileSize === null || sameVersion({ size: sent.size, mtimeMs: sent.mtimeMs }, { size: item.fileSize, mtimeMs: item.fileMtimeMs })) {
      return { outcome: 'done', message: said('activity.queue.alreadyUploaded', { path }), record: () => ctx.baseFiles.record(base) };
    }
    // A newer version was queued meanwhile: the one sent is on the service, the newer one replaces it.
    ctx.store.alreadySent(item.id, base, { kind: 'replace', remoteId: found.id, designId });
    ctx.log('info', said('activity.queue.alreadyUploadedNewerFollows', { path }), path);
    return { outcome: 'waiting', at: 0, reason: null };
  },

  async notFound(item, ctx): Promise<JobResult | null> {
    return designGone(item, ctx);
  },
};

/**
 * The record an upload in doubt made, if the service has it: a document by its content (modelhash is the SHA-1
 * of the file), an image by its name (the service names it after the file); in both cases made no earlier than
 * the attempt, and not the synced counterpart of another file.
 */
async function findUploaded(ctx: JobContext, designId: number, kind: 'image' | 'document', path: string, sent: SentAttempt): Promise<Remote | null> {
  const listed: Remote[] = kind === 'image' ? await ctx.client.listImages(designId, ctx.signal) : await ctx.client.listDocuments(designId, ctx.signal);
  const candidates = listed
    .filter((remote) => remote.name === sent.name && createdSince(remote.created_at, sent.at))
    .filter((remote) => kind === 'image' || (remote as Document).modelhash === sent.sha1)
    .filter((remote) => {
      const synced = ctx.baseFiles.byRemote(kind, remote.id);
      return !synced || synced.path === path;
    })
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
  return candidates[0] ?? null;
}
