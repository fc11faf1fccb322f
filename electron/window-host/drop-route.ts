import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContractProblem } from '../../shared';
import type { EngineWords } from '../../shared/i18n/engine-words';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';
import { englishOf } from '../../shared/i18n/worded-error';
import { DROP_HEADER, dropNotKeptWords, dropProblemStatus, DropTooLargeError, MAX_DROP_BYTES, parseDropAddress, stageDrop } from '../engine/contract/drop-staging';
import { isOwnOrigin } from './host-security';

export interface DropRouteContext {
  endpoint: ContractEndpoint;
  /** The Host that passed the host's check: the page's own origin is `http://` + it. */
  host: string;
  hasSession: boolean;
  maxBytes?: number;
  /** Answers with the host's security headers. */
  reply: (status: number, body: string, type?: string, extra?: Record<string, string>) => void;
}


/**
 * `PUT /drops/designs/<designId>/<encoded name>`: a file dropped on a design in the window, its body streamed to the
 * profile's incoming folder (never held in memory), then handed to the engine. A state-changing request, so beyond
 * the session cookie and the Host: the Origin must be this host's own, and a custom header must be there (a
 * cross-site form or simple request cannot send it). Answers JSON: `{ file }` or `{ problem }`.
 */
export async function handleDrop(request: IncomingMessage, response: ServerResponse, pathname: string, ctx: DropRouteContext): Promise<void> {
  const problem = (status: number, kind: ContractProblem['kind'], message: string, extra: Record<string, string> = {}, words?: EngineWords) =>
    ctx.reply(status, JSON.stringify({ problem: { kind, message, ...(words ? { words } : {}) } }), 'application/json', extra);
  // A refusal before the body is read closes the connection, so an unread body is not taken for the next request.
  const refuse = (status: number, kind: ContractProblem['kind'], message: string, words?: EngineWords) => problem(status, kind, message, { connection: 'close' }, words);

  if (request.method !== 'PUT') return ctx.reply(405, 'Only PUT is answered here.', undefined, { allow: 'PUT', connection: 'close' });
  if (!ctx.hasSession) return refuse(403, 'forbidden', 'This window has no session: open the address design-sync ui printed.');
  if (!isOwnOrigin(request.headers.origin, ctx.host)) return refuse(403, 'forbidden', 'Refused: the request does not come from this window.');
  if (request.headers[DROP_HEADER] !== '1') return refuse(403, 'forbidden', `Refused: a drop must carry the ${DROP_HEADER} header.`);
  const address = parseDropAddress(pathname);
  if (!address.ok) return refuse(400, 'validation', address.message, address.words);
  const limit = ctx.maxBytes ?? MAX_DROP_BYTES;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    const tooLarge = new DropTooLargeError(limit);
    return refuse(413, 'validation', tooLarge.message, tooLarge.words);
  }

  let staged: { path: string; size: number };
  try {
    staged = await stageDrop(await ctx.endpoint.incomingDir(), request, limit);
  } catch (error) {
    if (error instanceof DropTooLargeError) return refuse(413, 'validation', error.message, error.words);
    if (request.destroyed || request.readableAborted) return void response.destroy();
    const words = dropNotKeptWords(error, limit);
    return refuse(507, 'internal', englishOf(words), words);
  }
  const outcome = await ctx.endpoint.adoptDroppedFile({ designId: address.designId, fileName: address.fileName, stagedPath: staged.path });
  if (outcome.ok) return ctx.reply(201, JSON.stringify({ file: outcome.value }), 'application/json');
  return problem(dropProblemStatus(outcome.problem.kind), outcome.problem.kind, outcome.problem.message, {}, outcome.problem.words);
}
