import { describeLabelledFieldErrors, validateDesignInput, type UserDesign } from '../../../../shared';
import { fieldErrorsSaid } from '../field-words';
import { createdSince, type Job, type JobContext } from '../job';
import type { QueueItem, SentAttempt } from '../queue-item';
import { said } from '../said';

function folderOf(item: QueueItem): string {
  if (!item.folder) throw new Error(`Queue item ${item.id} (create-design) names no folder`);
  return item.folder;
}

/**
 * A new top-level folder, once a person confirmed it with a name, excerpt and license: create the design (a draft),
 * publish it if asked, and link the folder to it. The folder side then queues the folder's files on its next scan.
 * The id of a design already made is kept in the payload, so a retry never creates it twice.
 */
export const createDesignJob: Job<'create-design'> = {
  kind: 'create-design',
  validationAttention: 'confirm-design',

  async run(item, ctx) {
    const folder = folderOf(item);
    const proposal = item.payload;
    if (proposal.confirmed !== true) {
      return {
        outcome: 'attention', attention: 'confirm-design',
        reason: said('queue.reason.confirmNewDesign', { folder }),
      };
    }
    const fields = { name: proposal.name, excerpt: proposal.excerpt, ...(proposal.license ? { license: proposal.license } : {}) };
    const checked = validateDesignInput(fields, 'create');
    if (!checked.ok) return { outcome: 'attention', attention: 'confirm-design', reason: said('queue.reason.designCannotBeCreated', { folder, errors: fieldErrorsSaid(checked.errors) ?? describeLabelledFieldErrors(checked.errors) }) };

    let designId = proposal.createdDesignId ?? null;
    if (designId === null) {
      ctx.designFolders.setState(folder, 'creating');
      if (!ctx.sending({ at: ctx.now(), name: checked.value.name ?? null, sha1: null, size: null, mtimeMs: null, inode: null })) {
        return { outcome: 'cancelled', reason: said('queue.reason.cancelled') };
      }
      const design = await ctx.client.createDesign(checked.value, ctx.signal);
      designId = design.id;
      ctx.store.adoptDesign(item.id, folder, design.id);
    }
    // Published only when the service says so on reading it back: otherwise it stays a draft, and the line says so.
    const published = proposal.publish === true ? (await ctx.client.publishDesign(designId, ctx.signal)).published : false;
    const how = proposal.publish !== true ? 'draft' : published ? 'published' : 'notPublished';
    const made = designId;
    return {
      outcome: 'done',
      message: said('activity.queue.designCreated', { name: checked.value.name ?? proposal.name ?? '', folder, how }),
      record: () => ctx.designFolders.link(folder, made),
    };
  },

  /** Looks among the user's own designs for one of this name made since the attempt, not linked to another folder. */
  async reconcile(item, sent, ctx) {
    const found = await findCreated(ctx, sent);
    if (found !== null) {
      ctx.store.adoptDesign(item.id, folderOf(item), found);
      ctx.log('info', said('activity.queue.designAlreadyCreated', { name: sent.name ?? '' }), folderOf(item));
    }
    // Either way the run goes on: it publishes the adopted design if asked, or creates one.
    return null;
  },
};

async function findCreated(ctx: JobContext, sent: SentAttempt): Promise<number | null> {
  const me = await ctx.client.whoami(ctx.signal);
  for await (const page of ctx.client.allPages<UserDesign>(`/v1/users/${me.id}/designs`, { limit: 100, signal: ctx.signal })) {
    for (const design of page.items) {
      if (design.name === sent.name && createdSince(design.created_at, sent.at) && !ctx.designFolders.ofDesign(design.id)) return design.id;
    }
  }
  return null;
}
