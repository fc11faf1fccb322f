import { fileKindOf, pathOf, type Job } from '../job';
import { designIdOf } from '../job';
import { said } from '../said';

/**
 * A synced file deleted from the folder: deleted on the service only once a person confirmed it
 * (payload.confirmed, set by QueueStore.confirm). DELETE may be repeated: a 404 is success.
 */
export const deleteRemoteJob: Job<'delete-remote'> = {
  kind: 'delete-remote',
  validationAttention: 'invalid-file',

  async run(item, ctx) {
    const path = pathOf(item);
    const kind = fileKindOf(item);
    if (item.payload.confirmed !== true) {
      return {
        outcome: 'attention', attention: 'confirm-delete',
        reason: said('queue.reason.confirmDelete', { path }),
      };
    }
    const remoteId = item.remoteId ?? ctx.baseFiles.get(path)?.remoteId ?? null;
    const designId = designIdOf(item, ctx);
    if (remoteId === null || designId === null) {
      return { outcome: 'done', message: said('activity.queue.notOnServiceToDelete', { path }), record: () => ctx.baseFiles.remove(path) };
    }
    if (kind === 'image') await ctx.client.deleteImage(designId, remoteId, ctx.signal);
    else await ctx.client.deleteDocument(designId, remoteId, ctx.signal);
    return {
      outcome: 'done', message: said('activity.queue.deleted', { path }),
      record: () => {
        const base = ctx.baseFiles.byRemote(kind, remoteId);
        if (base) ctx.baseFiles.remove(base.path);
      },
    };
  },

  /** Deleting again is harmless. */
  async reconcile() {
    return null;
  },
};
