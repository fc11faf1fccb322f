import { createReadStream, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { FILE_ADDRESS_PREFIX, type ContractEndpoint } from '../engine/contract/contract-endpoint';
import { DROP_ADDRESS_PREFIX } from '../engine/contract/drop-staging';
import { contractSocket } from './contract-socket';
import { handleDrop } from './drop-route';
import { THUMBNAIL_ADDRESS_PREFIX } from '../engine/contract/thumbnail-staging';
import { handleThumbnail } from './thumbnail-route';
import { drawFirstFrame, firstFrameModuleBeside, loadFirstFrameRenderer, pageWithFirstFrame } from './first-frame';
import { pageTemplates } from './page-template';
import { firstAnswers } from './preloaded-page';
import { frameWords, pageLanguage } from './page-language';
import { cookieValue, isOwnOrigin, ownHost, randomToken, sameSecret, securityHeaders, sessionCookie, sessionCookieName } from './host-security';
import { contentTypeOf, resolveStaticFile } from './static-files';
import { notBuiltPage, notSignedPage, pageWords } from './host-pages';
import { engineLog } from '../engine/log/engine-log';

export interface WindowHostOptions {
  endpoint: ContractEndpoint;
  /** 0 (default): a free port chosen by the system. */
  port?: number;
  /** The largest file one drop takes (default 2 GiB). */
  maxDropBytes?: number;
  /** The built window (index.html and its assets); until it exists, a page that says so. */
  staticDir?: string | null;
  /** The build's renderer of the first frame (first-frame.ts); by default the one beside staticDir, when there is one. */
  firstFrameModule?: string;
  log?: (line: string) => void;
}

export interface WindowHost {
  /** The address to open, with this run's secret (`http://127.0.0.1:<port>/?secret=…`): print it once, log it nowhere. */
  url: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} on 127.0.0.1 is already in use: choose another with --port, or leave it out to use a free one.`);
    this.name = 'PortInUseError';
  }
}

/** Content-Disposition for a download: an ASCII fallback name and the exact one (RFC 6266, RFC 8187). */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** How long a browser may keep a file address's bytes (they change only with the design, whose views re-address them). */
const FILE_MAX_AGE_SECONDS = 3600;
const ASSET_MAX_AGE_SECONDS = 300;
/** The addresses of the window's page (index.html). */
const PAGE_PATHS = new Set(['/', '/index.html']);

/**
 * The window and the contract on 127.0.0.1, secured like a local GUI people trust: a secret per run (then an HttpOnly
 * SameSite=Strict cookie), the Host header checked (DNS rebinding), the WebSocket's Origin checked, a strict CSP, no
 * CORS. See docs/security.md.
 */
export async function startWindowHost(options: WindowHostOptions): Promise<WindowHost> {
  const secret = randomToken();
  // The cookie is a value of its own: the secret may linger in a terminal's scrollback, the cookie only in the browser.
  const session = randomToken();
  engineLog.keepOut(() => [secret, session]);
  // Everything the host notices goes to the engine log, and to the front end's own log when it gave one.
  const log = (line: string) => {
    engineLog.warn('window-host', line);
    options.log?.(line);
  };
  const staticDir = options.staticDir && existsSync(join(options.staticDir, 'index.html')) ? options.staticDir : null;
  const socket = contractSocket(options.endpoint, log);
  // Loaded once, as the host starts (a few tens of ms), not by the first page asked.
  const firstFrameRenderer = staticDir ? loadFirstFrameRenderer(options.firstFrameModule ?? firstFrameModuleBeside(staticDir), log) : Promise.resolve(null);
  const templateOf = staticDir ? pageTemplates(staticDir) : null;
  let port = 0;

  const headersOf = (request: IncomingMessage, styleHashes: readonly string[] = []) => securityHeaders(ownHost(request.headers.host, port) ?? `127.0.0.1:${port}`, styleHashes);
  const reply = (response: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}, styleHashes: readonly string[] = []) => {
    response.writeHead(status, { ...headersOf(response.req, styleHashes), 'content-type': type, 'cache-control': 'no-store', ...extra });
    response.end(response.req.method === 'HEAD' ? undefined : body);
  };
  const hasSession = (request: IncomingMessage) => sameSecret(cookieValue(request.headers.cookie, sessionCookieName(port)), session);
  // Origin-form only ("/path?query"): parsed under our own origin, so "//name/…" stays a path and never a host.
  const urlOf = (request: IncomingMessage) => (request.url?.startsWith('/') ? new URL(`http://127.0.0.1:${port}${request.url}`) : null);

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      log(`window host: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reply(response, 500, 'The window host could not answer this request.');
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = ownHost(request.headers.host, port);
    if (!host) return reply(response, 421, 'This host answers only to its own address on 127.0.0.1.');
    const target = urlOf(request);
    if (target?.pathname.startsWith(DROP_ADDRESS_PREFIX)) {
      return handleDrop(request, response, target.pathname, {
        endpoint: options.endpoint, host, hasSession: hasSession(request), ...(options.maxDropBytes ? { maxBytes: options.maxDropBytes } : {}),
        reply: (status, body, type, extra) => reply(response, status, body, type, extra),
      });
    }
    if (target?.pathname.startsWith(THUMBNAIL_ADDRESS_PREFIX)) {
      return handleThumbnail(request, response, target.pathname, {
        endpoint: options.endpoint, host, hasSession: hasSession(request),
        reply: (status, body, type, extra) => reply(response, status, body, type, extra),
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'Only GET and HEAD are answered here.', undefined, { allow: 'GET, HEAD' });
    const url = urlOf(request);
    if (!url) return reply(response, 400, 'Not an address this host understands.');
    const given = url.searchParams.get('secret');
    if (given !== null) {
      if (!sameSecret(given, secret)) return reply(response, 403, notSignedPage(await pageWords(options.endpoint, request)), 'text/html; charset=utf-8');
      url.searchParams.delete('secret');
      // The secret becomes a cookie and leaves the address bar (and the history).
      return reply(response, 303, '', undefined, { 'set-cookie': sessionCookie(port, session), location: `http://${host}${url.pathname}${url.search}` });
    }
    if (!hasSession(request)) return reply(response, 403, notSignedPage(await pageWords(options.endpoint, request)), 'text/html; charset=utf-8');

    if (url.pathname.startsWith(FILE_ADDRESS_PREFIX)) {
      const file = await options.endpoint.file(url.pathname);
      if (!file) return reply(response, 404, 'No such file here (not cached, and the service cannot be reached).');
      // A model file's download (the window's "Download for your slicer"): saved under its own name, never shown.
      if (file.downloadName) return stream(response, file.path, file.contentType, file.size, 'no-store', { 'content-disposition': attachment(file.downloadName) });
      return stream(response, file.path, file.contentType, file.size, `private, max-age=${FILE_MAX_AGE_SECONDS}`);
    }
    if (!staticDir) {
      if (url.pathname === '/' || url.pathname === '/index.html') return reply(response, 200, notBuiltPage(await pageWords(options.endpoint, request)), 'text/html; charset=utf-8');
      return reply(response, 404, 'Not found.');
    }
    // The window's first answers come with its page (preloaded-page.ts): its first screen does not wait for the
    // WebSocket; and so does its first frame drawn from them (first-frame.ts): the first cards are painted as the page
    // is parsed. Asked of the engine as the request comes, while the page's file is looked up.
    // The page is in the person's language (page-language.ts): the frame drawn in it, the window started in it.
    const isPagePath = request.method === 'GET' && PAGE_PATHS.has(url.pathname);
    const answers = isPagePath ? firstAnswers(options.endpoint) : null;
    const language = isPagePath ? pageLanguage(options.endpoint, request).then(frameWords) : null;
    const found = await resolveStaticFile(staticDir, url.pathname);
    if (!found) return reply(response, 404, 'Not found.');
    const isPage = found.path.endsWith('index.html');
    if (isPage && request.method === 'GET') {
      const [template, answered, renderer, drawn] = await Promise.all([
        templateOf!(found), answers ?? firstAnswers(options.endpoint), firstFrameRenderer, language ?? pageLanguage(options.endpoint, request).then(frameWords),
      ]);
      const page = pageWithFirstFrame(template, answered, renderer ? drawFirstFrame(renderer, answered, log, drawn.words) : null, drawn.language);
      return reply(response, 200, page.html, contentTypeOf(found.path), {}, page.styleHashes);
    }
    return stream(response, found.path, contentTypeOf(found.path), found.size, isPage ? 'no-store' : `private, max-age=${ASSET_MAX_AGE_SECONDS}`);
  }

  function stream(response: ServerResponse, path: string, type: string, size: number, cache: string, extra: Record<string, string> = {}): void {
    response.writeHead(200, { ...headersOf(response.req), 'content-type': type, 'content-length': String(size), 'cache-control': cache, ...extra });
    if (response.req.method === 'HEAD' || size === 0) {
      response.end();
      return;
    }
    // Never more than the length announced, should the file have grown since.
    const file = createReadStream(path, { end: size - 1 });
    file.on('error', () => response.destroy());
    file.pipe(response);
  }

  server.on('upgrade', (request: IncomingMessage, raw: Duplex, head: Buffer) => {
    const host = ownHost(request.headers.host, port);
    const refusal = !host ? 'the Host is not this host'
      : !isOwnOrigin(request.headers.origin, host) ? 'the Origin is not this host'
      : !hasSession(request) ? 'no session cookie'
      : urlOf(request)?.pathname !== '/contract' ? 'no such socket' : null;
    if (refusal) {
      log(`window host: a WebSocket was refused (${refusal})`);
      raw.once('finish', () => raw.destroy());
      raw.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nRefused: ${refusal}.\r\n`);
      return;
    }
    socket.accept(request, raw, head);
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port ?? 0) : error);
    server.once('error', onError);
    server.listen({ port: options.port ?? 0, host: '127.0.0.1' }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?secret=${secret}`,
    origin,
    port,
    async close() {
      await socket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
