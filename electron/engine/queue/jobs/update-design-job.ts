import { isServiceError } from '../../api/service-error';
import { refusalWords } from '../refusal-words';
import type { Job, JobResult } from '../job';
import { fieldList } from '../field-words';
import { said } from '../said';

/** Which fields an edit changes, in the window's words ("name, summary"). */
/** The fields an edit changed, in a sentence's words ("name, summary"). */
export function editedFields(fields: object) {
  return fieldList(Object.keys(fields)) ?? '';
}

/**
 * An edit of a design's fields (name, excerpt, license, description) made while the service was away: a PATCH of the
 * fields, which is idempotent (the same fields sent twice leave the same design), so an attempt whose answer was lost
 * is simply sent again. The design as the service then holds it is kept in the payload (`answer`) for the cache. An
 * edit waits while an earlier edit of the same design is being sent, so an older one never lands after it. A refusal
 * of the service (its validation, the design gone or not the person's) fails the item with the service's words.
 */
export const updateDesignJob: Job<'update-design'> = {
  kind: 'update-design',
  validationAttention: 'invalid-file',

  async run(item, ctx): Promise<JobResult> {
    const { fields, designName } = item.payload;
    const designId = item.designId!;
    if (ctx.store.earlierEditBeingSent(item)) return { outcome: 'waiting', at: ctx.now() + 500, reason: said('queue.reason.earlierEditBeingSent') };
    if (!ctx.sending({ at: ctx.now(), name: typeof fields.name === 'string' ? fields.name : null, sha1: null, size: null, mtimeMs: null, inode: null })) {
      return { outcome: 'cancelled', reason: said('queue.reason.cancelled') };
    }
    try {
      await ctx.client.updateDesign(designId, fields, ctx.signal);
    } catch (error) {
      if (isServiceError(error) && error.problem.kind === 'validation') {
        return { outcome: 'failed', reason: refusalWords(error.problem, item, said('queue.reason.editOfDesign', { name: designName })) };
      }
      throw error;
    }
    const answer = await ctx.client.getDesign(designId, ctx.signal);
    return {
      outcome: 'done',
      message: said('activity.queue.editSent', { name: designName, fields: editedFields(fields) }),
      record: () => ctx.store.mergePayload(item.id, { answer }),
    };
  },

  /** The same fields again change nothing: send again. */
  async reconcile() {
    return null;
  },

  async notFound(item): Promise<JobResult> {
    const { designName } = item.payload;
    return { outcome: 'failed', reason: said('queue.reason.editedDesignGone', { name: designName }) };
  },
};
