import { ServiceClient } from '../api/service-client';
import { isServiceError, ServiceError } from '../api/service-error';
import { findList } from '../api/tolerant-readers';

/** Short: a person is waiting on the Save button. One quick retry (a service just started may drop the first). */
export const SERVICE_CHECK_TRANSPORT = {
  retry: { retries: 1, minDelayMs: 200, maxDelayMs: 400 },
  timeouts: { connectMs: 3_000, firstByteMs: 4_000, idleMs: 4_000, overallMs: 5_000 },
};

/**
 * Why an address is not saved: `message` in a sentence of its own; `fieldError` the same said after the field's label
 * ("Service address cannot be reached: …", shared/validation/field-labels.ts).
 */
export interface ServiceAddressRefusal {
  message: string;
  fieldError: string;
}

/**
 * Whether a design-sharing service answers at `serviceUrl`, asked before the address is saved: `GET /v1/designs?limit=1`
 * with no token (a token belongs to its own service and is never sent to an address being tried). Resolves with null
 * when the answer is a design list (a bare array, or an object holding one, as the tolerant readers accept), else with
 * why not in plain words, naming the address.
 */
export async function checkServiceAddress(serviceUrl: string, options: { userAgent?: string; timeouts?: Partial<typeof SERVICE_CHECK_TRANSPORT.timeouts> } = {}): Promise<ServiceAddressRefusal | null> {
  const client = new ServiceClient({
    baseUrl: serviceUrl,
    token: () => null,
    ...SERVICE_CHECK_TRANSPORT,
    timeouts: { ...SERVICE_CHECK_TRANSPORT.timeouts, ...options.timeouts },
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  });
  try {
    const answer = await client.transport.send({ method: 'GET', path: '/v1/designs', query: { limit: 1 } });
    return findList(answer.body) !== null ? null : notAService(serviceUrl);
  } catch (error) {
    if (isServiceError(error, 'offline')) {
      return error.detail.timeout
        ? {
          message: `${serviceUrl} took too long to answer: check the address, or try again later.`,
          fieldError: `cannot be reached: ${serviceUrl} took too long to answer. Check the address, or try again later`,
        }
        : { message: `Nothing answers at ${serviceUrl}: check the address.`, fieldError: `cannot be reached: nothing answers at ${serviceUrl}. Check the address` };
    }
    // A service that is there but busy or failing now is not told it is no service at all.
    if (isServiceError(error, 'rate-limited') || (error instanceof ServiceError && error.problem.kind === 'server-error' && error.problem.status >= 500)) {
      return {
        message: `${serviceUrl} answered with a problem of its own just now: try again in a moment.`,
        fieldError: `could not be checked: ${serviceUrl} answered with a problem of its own just now. Try again in a moment`,
      };
    }
    if (isServiceError(error)) return notAService(serviceUrl);
    throw error;
  }
}

const notAService = (serviceUrl: string): ServiceAddressRefusal => ({
  message: `${serviceUrl} answered, but not as a design-sharing service (it has no /v1/designs): check the address.`,
  fieldError: `is not a design-sharing service: ${serviceUrl} answered, but has no /v1/designs. Check the address`,
});
