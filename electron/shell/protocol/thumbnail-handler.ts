import { mkdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ContractProblem, Outcome } from '../../../shared';
import { dropProblemStatus, DropTooLargeError, stageDrop } from '../../engine/contract/drop-staging';
import { MAX_THUMBNAIL_BYTES, parseThumbnailAddress, THUMBNAIL_HEADER } from '../../engine/contract/thumbnail-staging';

export interface AppThumbnailOptions {
  /** The profile's incoming folder, where the picture is staged. */
  incomingDir: string;
  /** Hands a staged picture to the engine (which keeps it with the design, or refuses and removes it). */
  adopt(staged: { designId: number; documentId: number; stagedPath: string }): Promise<Outcome<unknown>>;
  headers: Record<string, string>;
}

const TOO_LARGE = `The picture is larger than ${MAX_THUMBNAIL_BYTES / 1024 ** 2} MiB, the most a generated thumbnail may be.`;

/**
 * `PUT app://window/thumbnails/designs/<designId>/<documentId>` in the Electron window: a picture the window drew from
 * a design's model, with the same address, checks and answers as the window host's (electron/window-host/
 * thumbnail-route.ts): the header, image/png, at most MAX_THUMBNAIL_BYTES streamed to the incoming folder.
 */
export function appThumbnailHandler(options: AppThumbnailOptions): (request: Request, url: URL) => Promise<Response> {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { ...options.headers, 'content-type': 'application/json', 'cache-control': 'no-store' } });
  const problem = (status: number, kind: ContractProblem['kind'], message: string) => json(status, { problem: { kind, message } });

  return async (request, url) => {
    if (request.headers.get(THUMBNAIL_HEADER) !== '1') return problem(403, 'forbidden', `Refused: a thumbnail must carry the ${THUMBNAIL_HEADER} header.`);
    if (request.headers.get('content-type') !== 'image/png') return problem(415, 'validation', 'A generated thumbnail is sent as image/png.');
    const address = parseThumbnailAddress(url.pathname);
    if (!address.ok) return problem(400, 'validation', address.message);
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_THUMBNAIL_BYTES) return problem(413, 'validation', TOO_LARGE);
    if (!request.body) return problem(400, 'validation', 'The picture has no content.');
    let stagedPath: string;
    try {
      await mkdir(options.incomingDir, { recursive: true, mode: 0o700 });
      stagedPath = (await stageDrop(options.incomingDir, Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>), MAX_THUMBNAIL_BYTES)).path;
    } catch (error) {
      if (error instanceof DropTooLargeError) return problem(413, 'validation', TOO_LARGE);
      return problem(507, 'internal', 'The picture could not be received.');
    }
    const outcome = await options.adopt({ designId: address.designId, documentId: address.documentId, stagedPath });
    if (outcome.ok) return json(201, outcome.value);
    return problem(dropProblemStatus(outcome.problem.kind), outcome.problem.kind, outcome.problem.message);
  };
}
