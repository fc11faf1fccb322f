import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { FILE_ADDRESS_PREFIX, type ServedFile } from '../../engine/contract/contract-endpoint';
import { DROP_ADDRESS_PREFIX } from '../../engine/contract/drop-staging';
import { THUMBNAIL_ADDRESS_PREFIX } from '../../engine/contract/thumbnail-staging';
import { contentTypeOf, resolveStaticFile } from '../../window-host/static-files';
import { APP_HOST, APP_SCHEME } from '../window/content-security-policy';

export interface AppProtocolOptions {
  /** The built window (index.html and its assets). */
  rendererDir: string;
  /** The file behind a contract file address (the engine's file cache), or null. */
  file(address: string): Promise<ServedFile | null>;
  /** Answers a dropped file's upload (`PUT /drops/designs/<id>/<name>`). */
  drop?(request: Request, url: URL): Promise<Response>;
  /** Answers a picture the window drew from a design's model (`PUT /thumbnails/designs/<id>/<document>`). */
  thumbnail?(request: Request, url: URL): Promise<Response>;
  /** The headers every answer carries (the CSP above all). */
  headers: Record<string, string>;
}

/**
 * The `app://` protocol's handler (Electron's protocol.handle): the window's own files from its build, the contract's
 * file addresses from the engine's file cache, dropped files and pictures drawn from models. Anything else — another host, a path out of the
 * build, a method other than GET and HEAD (PUT only for drops and generated thumbnails) — is refused. Pure web Request → Response, so it runs
 * and is tested in plain Node.
 */
export function appProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const answer = (status: number, body: string, extra: Record<string, string> = {}) =>
    new Response(status === 204 ? null : body, { status, headers: { ...options.headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra } });

  const stream = (request: Request, path: string, type: string, size: number, cache: string) => {
    const headers = { ...options.headers, 'content-type': type, 'content-length': String(size), 'cache-control': cache };
    if (request.method === 'HEAD' || size === 0) return new Response(null, { status: 200, headers });
    // Never more than the length announced, should the file have grown since.
    const body = Readable.toWeb(createReadStream(path, { end: size - 1 })) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers });
  };

  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(400, 'Not an address this app understands.');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return answer(404, 'Not found.');
    if (url.pathname.startsWith(DROP_ADDRESS_PREFIX) && options.drop) {
      if (request.method !== 'PUT') return answer(405, 'Dropped files are sent with PUT.', { allow: 'PUT' });
      return options.drop(request, url);
    }
    if (url.pathname.startsWith(THUMBNAIL_ADDRESS_PREFIX) && options.thumbnail) {
      if (request.method !== 'PUT') return answer(405, 'Generated thumbnails are sent with PUT.', { allow: 'PUT' });
      return options.thumbnail(request, url);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Only GET and HEAD are answered here.', { allow: 'GET, HEAD' });
    if (url.pathname.startsWith(FILE_ADDRESS_PREFIX)) {
      const file = await options.file(url.pathname);
      if (!file) return answer(404, 'No such file here (not cached, and the service cannot be reached).');
      return stream(request, file.path, file.contentType, file.size, 'private, max-age=3600');
    }
    const found = await resolveStaticFile(options.rendererDir, url.pathname);
    if (!found) return answer(404, 'Not found.');
    return stream(request, found.path, contentTypeOf(found.path), found.size, found.path.endsWith('index.html') ? 'no-store' : 'private, max-age=300');
  };
}
