import { mkdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ContractProblem, Outcome } from '../../../shared';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import { DROP_HEADER, dropNotKeptWords, dropProblemStatus, DropTooLargeError, MAX_DROP_BYTES, parseDropAddress, stageDrop } from '../../engine/contract/drop-staging';

export interface AppDropOptions {
  /** The profile's incoming folder, where dropped files are staged. */
  incomingDir: string;
  /** Hands a staged file to the engine (which moves it into the design's folder, or refuses and removes it). */
  adopt(drop: { designId: number; fileName: string; stagedPath: string }): Promise<Outcome<unknown>>;
  headers: Record<string, string>;
  maxBytes?: number;
}


/**
 * `PUT app://window/drops/designs/<id>/<name>` in the Electron window: the same address, checks and answers as the
 * window host's (electron/window-host/drop-route.ts), the body streamed to the incoming folder, never held in memory.
 */
export function appDropHandler(options: AppDropOptions): (request: Request, url: URL) => Promise<Response> {
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { ...options.headers, 'content-type': 'application/json', 'cache-control': 'no-store' } });
  const problem = (status: number, kind: ContractProblem['kind'], message: string, words?: EngineWords) =>
    json(status, { problem: { kind, message, ...(words ? { words } : {}) } });
  const limit = options.maxBytes ?? MAX_DROP_BYTES;

  return async (request, url) => {
    if (request.headers.get(DROP_HEADER) !== '1') return problem(403, 'forbidden', `Refused: a drop must carry the ${DROP_HEADER} header.`);
    const address = parseDropAddress(url.pathname);
    if (!address.ok) return problem(400, 'validation', address.message, address.words);
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limit) {
      const tooLarge = new DropTooLargeError(limit);
      return problem(413, 'validation', tooLarge.message, tooLarge.words);
    }
    if (!request.body) return problem(400, 'validation', 'The dropped file has no content.');
    let stagedPath: string;
    try {
      await mkdir(options.incomingDir, { recursive: true, mode: 0o700 });
      stagedPath = (await stageDrop(options.incomingDir, Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>), limit)).path;
    } catch (error) {
      if (error instanceof DropTooLargeError) return problem(413, 'validation', error.message, error.words);
      const words = dropNotKeptWords(error, limit);
      return problem(507, 'internal', englishOf(words), words);
    }
    const outcome = await options.adopt({ designId: address.designId, fileName: address.fileName, stagedPath });
    if (outcome.ok) return json(201, { file: outcome.value });
    return problem(dropProblemStatus(outcome.problem.kind), outcome.problem.kind, outcome.problem.message, outcome.problem.words);
  };
}
