import type { Design } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { isServiceError, type ServiceError } from './service-error';

/** What publishing needs of the service's client: to ask in one form, and to read the design back. */
export interface PublishingClient {
  publishDesignAs(form: PublishForm, idOrSlug: number | string, signal?: AbortSignal): Promise<void>;
  getDesign(idOrSlug: number | string, signal?: AbortSignal): Promise<Design>;
}

/**
 * The ways clients of the service publish a design. The spec's update has no `state` field; the local service takes
 * `design[state]=published`, the service's PHP SDK (YouMagine/YM-php-sdk) sends `PUT /v1/designs/:id/mark_as/publish`,
 * and Cura's "Share on YouMagine" (daid/LegacyCura, Cura/util/youmagine.py) an empty `PUT /v1/designs/:id`.
 * They are tried in this order.
 */
export const PUBLISH_FORMS = ['state-field', 'mark-as-publish', 'empty-put'] as const;
export type PublishForm = (typeof PUBLISH_FORMS)[number];

export type PublishOutcome =
  /** The design read back as published, after `form`. */
  | { published: true; form: PublishForm; design: Design }
  /** No form published it: `design` is what the service holds after the last one (a draft). */
  | { published: false; design: Design };

/** A form the service does not know: it answered 404, 405, 400 or 422 (whether it had an effect is read back). */
function unknownForm(error: unknown): error is ServiceError {
  if (!isServiceError(error)) return false;
  const { problem } = error;
  return problem.kind === 'not-found' || problem.kind === 'validation' || (problem.kind === 'bad-request' && (problem.status === 400 || problem.status === 405));
}

/**
 * Publishes a design the way the service accepts: each form in turn, each time reading the design back to see
 * whether it is published (a service may ignore a field it does not know and still answer 204). A problem that is
 * not about the form (offline, signed out, not allowed, the service failing, the design gone) is thrown as it came.
 */
export async function publishTolerantly(client: PublishingClient, idOrSlug: number | string, signal?: AbortSignal): Promise<PublishOutcome> {
  let design: Design | undefined;
  for (const form of PUBLISH_FORMS) {
    try {
      await client.publishDesignAs(form, idOrSlug, signal);
    } catch (error) {
      if (!unknownForm(error)) throw error;
      engineLog.info('publish', `the service refused the publishing form ${form} for the design ${idOrSlug}; the next form is tried`, error);
    }
    design = await client.getDesign(idOrSlug, signal);
    if (design.state === 'published') return { published: true, form, design };
  }
  return { published: false, design: design! };
}
