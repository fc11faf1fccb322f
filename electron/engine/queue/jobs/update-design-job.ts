import { isServiceError } from '../../api/service-error';
import type { DesignFields } from '../../api/service-client';
import type { Job, JobResult } from '../job';
import type { QueueItem } from '../queue-item';

interface DesignEditPayload {
  fields: DesignFields;
  designName: string;
}

function payloadOf(item: QueueItem): DesignEditPayload {
  const fields = item.payload.fields;
  if (typeof fields !== 'object' || fields === null || item.designId === null) throw new Error(`Queue item ${item.id} (update-design) has no design or fields`);
  return { fields: fields as DesignFields, designName: typeof item.payload.designName === 'string' ? item.payload.designName : `design ${item.designId}` };
}

/** Which fields an edit changes, in words ("name, excerpt"). */
export function editedFields(fields: object): string {
  return Object.keys(fields).map((field) => (field === 'primary_image_id' ? 'cover image' : field)).join(', ');
}

/**
 * An edit of a design's fields (name, excerpt, license, description) made while the service was away: a PATCH of the
 * fields, which is idempotent (the same fields sent twice leave the same design), so an attempt whose answer was lost
 * is simply sent again. The design as the service then holds it is kept in the payload (`answer`) for the cache. An
 * edit waits while an earlier edit of the same design is being sent, so an older one never lands after it. A refusal
 * of the service (its validation, the design gone or not the person's) fails the item with the service's words.
 */
export const updateDesignJob: Job = {
  kind: 'update-design',
  validationAttention: 'invalid-file',

  async run(item, ctx): Promise<JobResult> {
    const { fields, designName } = payloadOf(item);
    const designId = item.designId!;
    const earlier = ctx.store.pendingDesignEdits(designId).some((other) => other.id < item.id && other.state === 'running');
    if (earlier) return { outcome: 'waiting', at: ctx.now() + 500, reason: 'An earlier edit of this design is being sent: this one goes next.' };
    if (!ctx.sending({ at: ctx.now(), name: typeof fields.name === 'string' ? fields.name : null, sha1: null, size: null, mtimeMs: null, inode: null })) {
      return { outcome: 'cancelled', reason: 'Cancelled.' };
    }
    try {
      await ctx.client.updateDesign(designId, fields, ctx.signal);
    } catch (error) {
      if (isServiceError(error, 'validation')) {
        return { outcome: 'failed', reason: `The service refused the edit of “${designName}” (${editedFields(fields)}): ${error.problem.message}` };
      }
      throw error;
    }
    const answer = await ctx.client.getDesign(designId, ctx.signal);
    return {
      outcome: 'done',
      message: `Sent the edit of “${designName}” (${editedFields(fields)}) made while the service was away.`,
      record: () => ctx.store.mergePayload(item.id, { answer }),
    };
  },

  /** The same fields again change nothing: send again. */
  async reconcile() {
    return null;
  },

  async notFound(item): Promise<JobResult> {
    const { designName } = payloadOf(item);
    return { outcome: 'failed', reason: `The design “${designName}” is no longer on the service (deleted, or no longer yours): the edit made here was not sent.` };
  },
};
