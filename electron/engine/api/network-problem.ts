import type { ServiceProblem } from '../../../shared';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import type { MessageId } from '../../../shared/i18n/messages';
import { englishOf } from '../../../shared/i18n/worded-error';
import { errorCode, type ExchangeFailure } from './http-exchange';
import type { ProxyUse } from './proxy-agents';
import type { ServiceErrorDetail } from './service-error';
import { formatBytes, formatCount, formatDuration } from './transport-limits';

/** Error codes that mean the request never reached the service, so even a write was not applied. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Turns a thrown error of a request into a problem. `isWrite`: a lost answer to a write may mean it was applied. */
export function networkProblem(error: unknown, isWrite: boolean, reason: 'timeout' | 'cancelled' | null): ServiceProblem {
  if (reason === 'cancelled') return { kind: 'cancelled', message: 'Cancelled.' };
  if (reason === 'timeout') {
    return { kind: 'offline', message: 'The service did not answer in time (or stopped taking the upload).', maybeApplied: isWrite };
  }
  // The network's code (ECONNREFUSED…) is not for people: it stays on the error's cause, for the engine log.
  const code = errorCode(error);
  const neverSent = code !== undefined && NEVER_SENT.has(code);
  return {
    kind: 'offline',
    message: neverSent ? 'The service cannot be reached.' : 'The connection to the service was lost.',
    maybeApplied: isWrite && !neverSent,
  };
}

/** An address as a message shows it: host and path, never the query (it carries the token). */
export function shownAddress(url: URL): string {
  return `${url.host}${url.pathname}`;
}

/** A redirect chain as a message shows it: the first two and the last two addresses. */
function shownChain(chain: URL[]): string {
  const shown = chain.map(shownAddress);
  return (shown.length > 4 ? [...shown.slice(0, 2), '…', ...shown.slice(-2)] : shown).join(' → ');
}

function bytesSoFar(bytes: number | undefined): string {
  return bytes ? `, after ${formatBytes(bytes)}` : ', nothing of the answer had come';
}

const TRY_LATER = 'check your connection or try again later';

export interface ExchangeProblem {
  problem: ServiceProblem;
  detail: ServiceErrorDetail;
}

/**
 * What a failed exchange means, said so that a person knows what happened and what to do: which timeout fired and
 * after how long, how much of an answer came, where a redirect went. `request` names it ("GET /v1/designs").
 */
export function exchangeProblem(failure: ExchangeFailure, request: string, isWrite: boolean): ExchangeProblem {
  const { detail } = failure;
  const throughProxy = detail.proxy ? proxyFailureProblem(failure, detail.proxy) : null;
  if (throughProxy) return throughProxy;
  const host = detail.url.host;
  const after = detail.limitMs !== undefined ? formatDuration(detail.limitMs) : '';
  const offline = (message: string, timeout?: ServiceErrorDetail['timeout'], neverSent = false): ExchangeProblem => ({
    problem: { kind: 'offline', message, maybeApplied: isWrite && !neverSent },
    detail: timeout ? { timeout } : {},
  });
  switch (failure.reason) {
    case 'cancelled':
      return { problem: { kind: 'cancelled', message: 'Cancelled.' }, detail: {} };
    case 'connect-timeout':
      return offline(`The service at ${host} cannot be reached: no connection within ${after} (connect timeout); check your network connection and the service address, or try again later.`, 'connect', true);
    case 'first-byte-timeout':
      return offline(`The service did not answer in time: ${host} sent nothing for ${after} after ${request} was sent (first-byte timeout); ${TRY_LATER}.`, 'first-byte');
    case 'idle-timeout':
      return offline(`The service at ${host} sent nothing for ${after} while answering ${request} (idle timeout${bytesSoFar(detail.bytes)}); ${TRY_LATER}.`, 'idle');
    case 'overall-timeout':
      return offline(`The service at ${host} took longer than ${after} to answer ${request} (overall timeout${bytesSoFar(detail.bytes)}); ${TRY_LATER}.`, 'overall');
    case 'stalled':
      return offline(`The service at ${host} stopped taking the upload of ${request} (stall timeout); ${TRY_LATER}.`, 'stall');
    case 'truncated': {
      const of = detail.expectedBytes != null ? `${formatCount(detail.bytes ?? 0)} bytes of ${formatCount(detail.expectedBytes)}` : `after ${formatCount(detail.bytes ?? 0)} bytes; the rest never came`;
      return offline(`The service's answer to ${request} ended early (${of}); try again.`);
    }
    case 'too-large': {
      const limit = formatBytes(detail.limitBytes ?? 0);
      const size = detail.bytes ? `more than ${limit} came (${formatBytes(detail.bytes)} read when the client stopped)` : `it announced ${formatBytes(detail.expectedBytes ?? 0)}`;
      return {
        problem: { kind: 'server-error', status: 200, message: `The service's answer to ${request} is too large: ${size}, and answers over ${limit} are refused; check the service address, or tell the service's maintainers.` },
        detail: { repeatable: false },
      };
    }
    case 'redirect-loop':
      return {
        problem: { kind: 'bad-request', status: 300, message: `The service at ${host} redirected ${request} too many times (${shownChain(detail.chain ?? [])}); check the service address.` },
        detail: { repeatable: false },
      };
    case 'redirect-elsewhere': {
      const target = detail.target!;
      return {
        problem: {
          kind: 'bad-request', status: 300,
          message: `The service at ${host} redirected ${request} to another address (${target.protocol}//${shownAddress(target)}); check the service address: if the service has moved, use ${target.origin} as its address.`,
        },
        detail: { repeatable: false },
      };
    }
    case 'redirect-write':
      return {
        problem: { kind: 'bad-request', status: 300, message: `The service at ${host} answered ${request} with a redirect to ${shownAddress(detail.target!)} instead of doing it; check the service address.` },
        detail: { repeatable: false },
      };
    case 'network': {
      const code = detail.code;
      if (code?.startsWith('HPE_')) {
        return {
          problem: { kind: 'server-error', status: 0, message: `The service at ${host} answered ${request} with something that is not HTTP; check the service address.` },
          detail: { repeatable: false },
        };
      }
      // Said in words only: the code (ECONNREFUSED, HPE_…) goes to the engine log with the error's cause.
      const neverSent = detail.neverSent === true || (code !== undefined && NEVER_SENT.has(code));
      return neverSent
        ? offline(`The service at ${host} cannot be reached; check that the service address is right and that you are online, or try again later.`, undefined, true)
        : offline(`The connection to the service at ${host} was lost during ${request}; ${TRY_LATER}.`);
    }
  }
}

/**
 * A proxy's failure as facts (keys `proxy.problem.*`, worded by the front ends): the proxy as shown (never its
 * password) and where its setting came from (`source`: each message says where to fix it, by a select), and its English.
 */
function proxyWords(id: MessageId, proxy: ProxyUse, values: Record<string, string | number> = {}): { message: string; words: EngineWords } {
  const words: EngineWords = { id, values: { proxy: proxy.shown, source: proxy.source, ...values } };
  return { message: englishOf(words), words };
}

/** A duration as a number and its unit, as formatDuration rounds it (a message words it: "10 s", "2,5 min"). */
function durationValues(ms: number): { amount: number; unit: 'ms' | 's' | 'min' } {
  if (ms < 1000) return { amount: ms, unit: 'ms' };
  if (ms < 120_000) return { amount: Math.round(ms / 100) / 10, unit: 's' };
  return { amount: Math.round(ms / 6_000) / 10, unit: 'min' };
}

/**
 * A failure that happened on the way to the proxy, said as the proxy's (not "the service cannot be reached"): it could
 * not be found, refused the connection, or did not connect in time. Null when the failure is past the proxy.
 */
function proxyFailureProblem(failure: ExchangeFailure, proxy: ProxyUse): ExchangeProblem | null {
  const { detail } = failure;
  const notSent = ({ message, words }: { message: string; words: EngineWords }, timeout?: ServiceErrorDetail['timeout']): ExchangeProblem => ({
    problem: { kind: 'offline', message, words, maybeApplied: false, proxy: true },
    detail: timeout ? { timeout } : {},
  });
  if (failure.reason === 'connect-timeout') {
    return notSent(proxyWords('proxy.problem.connectTimeout', proxy, { host: detail.url.host, ...durationValues(detail.limitMs ?? 0) }), 'connect');
  }
  if (failure.reason !== 'network' || !detail.neverSent) return null;
  switch (detail.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return notSent(proxyWords('proxy.problem.notFound', proxy));
    case 'ECONNREFUSED':
      return notSent(proxyWords('proxy.problem.refused', proxy));
    case 'ECONNRESET':
    case 'EPIPE':
      return notSent(proxyWords('proxy.problem.closed', proxy, { host: detail.url.host }));
    default:
      return notSent(proxyWords('proxy.problem.unreachable', proxy));
  }
}

/**
 * The proxy's own answer in the service's place: 407 (it wants a user name and password, or refused the ones sent), or
 * a refused tunnel (another status to CONNECT). The service was not reached: offline (nothing was applied, and the way
 * back is probed, so new settings take effect), never repeated at once (only new settings help).
 */
export function proxyAnswerProblem(proxy: ProxyUse, status: number, host: string): ServiceProblem {
  const notReached = ({ message, words }: { message: string; words: EngineWords }): ServiceProblem => ({ kind: 'offline', message, words, maybeApplied: false, proxy: true });
  if (status === 407) return notReached(proxyWords(proxy.credentials ? 'proxy.problem.credentialsRefused' : 'proxy.problem.credentialsAsked', proxy));
  return notReached(proxyWords('proxy.problem.tunnelRefused', proxy, { host, status: String(status) }));
}
