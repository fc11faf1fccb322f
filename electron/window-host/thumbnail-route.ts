import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContractProblem } from '../../shared';
import type { ContractEndpoint } from '../engine/contract/contract-endpoint';
import { dropProblemStatus, DropTooLargeError, stageDrop } from '../engine/contract/drop-staging';
import { MAX_THUMBNAIL_BYTES, parseThumbnailAddress, THUMBNAIL_HEADER } from '../engine/contract/thumbnail-staging';
import { isOwnOrigin } from './host-security';

export interface ThumbnailRouteContext {
  endpoint: ContractEndpoint;
  /** The Host that passed the host's check: the page's own origin is `http://` + it. */
  host: string;
  hasSession: boolean;
  /** Answers with the host's security headers. */
  reply: (status: number, body: string, type?: string, extra?: Record<string, string>) => void;
}

const TOO_LARGE = `The picture is larger than ${MAX_THUMBNAIL_BYTES / 1024 ** 2} MiB, the most a generated thumbnail may be.`;

/**
 * `PUT /thumbnails/designs/<designId>/<documentId>`: a PNG the window rendered from a design's first model, staged in
 * the profile's incoming folder (at most MAX_THUMBNAIL_BYTES, never held in memory), then handed to the engine, which
 * keeps it with the design (never uploads it). The checks of a drop: the session cookie, this host's own Origin, a
 * custom header. Answers JSON: `{ thumbnailUrl }` or `{ problem }`.
 */
export async function handleThumbnail(request: IncomingMessage, response: ServerResponse, pathname: string, ctx: ThumbnailRouteContext): Promise<void> {
  const problem = (status: number, kind: ContractProblem['kind'], message: string, extra: Record<string, string> = {}) =>
    ctx.reply(status, JSON.stringify({ problem: { kind, message } }), 'application/json', extra);
  const refuse = (status: number, kind: ContractProblem['kind'], message: string) => problem(status, kind, message, { connection: 'close' });

  if (request.method !== 'PUT') return ctx.reply(405, 'Only PUT is answered here.', undefined, { allow: 'PUT', connection: 'close' });
  if (!ctx.hasSession) return refuse(403, 'forbidden', 'This window has no session: open the address design-sync ui printed.');
  if (!isOwnOrigin(request.headers.origin, ctx.host)) return refuse(403, 'forbidden', 'Refused: the request does not come from this window.');
  if (request.headers[THUMBNAIL_HEADER] !== '1') return refuse(403, 'forbidden', `Refused: a thumbnail must carry the ${THUMBNAIL_HEADER} header.`);
  if (request.headers['content-type'] !== 'image/png') return refuse(415, 'validation', 'A generated thumbnail is sent as image/png.');
  const address = parseThumbnailAddress(pathname);
  if (!address.ok) return refuse(400, 'validation', address.message);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_THUMBNAIL_BYTES) return refuse(413, 'validation', TOO_LARGE);

  let staged: { path: string; size: number };
  try {
    staged = await stageDrop(await ctx.endpoint.incomingDir(), request, MAX_THUMBNAIL_BYTES);
  } catch (error) {
    if (error instanceof DropTooLargeError) return refuse(413, 'validation', TOO_LARGE);
    if (request.destroyed || request.readableAborted) return void response.destroy();
    return refuse(507, 'internal', 'The picture could not be received.');
  }
  const outcome = await ctx.endpoint.adoptGeneratedThumbnail({ designId: address.designId, documentId: address.documentId, stagedPath: staged.path });
  if (outcome.ok) return ctx.reply(201, JSON.stringify(outcome.value), 'application/json');
  return problem(dropProblemStatus(outcome.problem.kind), outcome.problem.kind, outcome.problem.message);
}
