import type { ServiceProblem } from '../../../shared';

/** Error codes that mean the request never reached the service, so even a write was not applied. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Turns a thrown fetch error into a problem. `isWrite`: a lost answer to a write may mean it was applied. */
export function networkProblem(error: unknown, isWrite: boolean, reason: 'timeout' | 'cancelled' | null): ServiceProblem {
  if (reason === 'cancelled') return { kind: 'cancelled', message: 'Cancelled.' };
  if (reason === 'timeout') {
    return { kind: 'offline', message: 'The service did not answer in time (or stopped taking the upload).', maybeApplied: isWrite };
  }
  const code = causeCode(error);
  const neverSent = code !== undefined && NEVER_SENT.has(code);
  const detail = code ? ` (${code})` : '';
  return {
    kind: 'offline',
    message: neverSent ? `The service cannot be reached${detail}.` : `The connection to the service was lost${detail}.`,
    maybeApplied: isWrite && !neverSent,
  };
}
