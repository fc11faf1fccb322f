import { createReadStream, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { FILE_ADDRESS_PREFIX, type ContractEndpoint } from '../engine/contract/contract-endpoint';
import { contractSocket } from './contract-socket';
import { cookieValue, isOwnHost, isOwnOrigin, randomToken, sameSecret, securityHeaders, sessionCookie, sessionCookieName } from './host-security';
import { contentTypeOf, NOT_BUILT_PAGE, NOT_SIGNED_PAGE, resolveStaticFile } from './static-files';

export interface WindowHostOptions {
  endpoint: ContractEndpoint;
  /** 0 (default): a free port chosen by the system. */
  port?: number;
  /** The built window (index.html and its assets); until it exists, a page that says so. */
  staticDir?: string | null;
  log?: (line: string) => void;
}

export interface WindowHost {
  /** The address to open, with this run's secret: print it once, never log it elsewhere. */
  url: string;
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

/**
 * The window and the contract on 127.0.0.1, secured like a local GUI people trust: a secret per run (then an HttpOnly
 * SameSite=Strict cookie), the Host header checked (DNS rebinding), the WebSocket's Origin checked, a strict CSP, no
 * CORS. See docs/security.md.
 */
export async function startWindowHost(options: WindowHostOptions): Promise<WindowHost> {
  const secret = randomToken();
  const session = randomToken();
  const log = options.log ?? (() => {});
  const staticDir = options.staticDir && existsSync(join(options.staticDir, 'index.html')) ? options.staticDir : null;
  const socket = contractSocket(options.endpoint, log);
  let port = 0;

  const reply = (response: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
    response.writeHead(status, { ...securityHeaders(port), 'content-type': type, 'cache-control': 'no-store', ...extra });
    response.end(response.req.method === 'HEAD' ? undefined : body);
  };
  const signedIn = (request: IncomingMessage) => sameSecret(cookieValue(request.headers.cookie, sessionCookieName(port)), session);

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      log(`window host: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reply(response, 500, 'The window host could not answer this request.');
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isOwnHost(request.headers.host, port)) return reply(response, 421, 'This host answers only to its own address on 127.0.0.1.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'Only GET and HEAD are answered here.', undefined, { allow: 'GET, HEAD' });
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const given = url.searchParams.get('secret');
    if (given !== null) {
      if (!sameSecret(given, secret)) return reply(response, 403, NOT_SIGNED_PAGE, 'text/html; charset=utf-8');
      url.searchParams.delete('secret');
      // The secret becomes a cookie and leaves the address bar (and the history).
      return reply(response, 303, '', undefined, { 'set-cookie': sessionCookie(port, session), location: `${url.pathname}${url.search}` });
    }
    if (!signedIn(request)) return reply(response, 403, NOT_SIGNED_PAGE, 'text/html; charset=utf-8');

    if (url.pathname.startsWith(FILE_ADDRESS_PREFIX)) {
      const file = await options.endpoint.file(url.pathname);
      if (!file) return reply(response, 404, 'No such file here (not cached, and the service cannot be reached).');
      return stream(response, file.path, file.contentType, file.size, 'private, max-age=3600');
    }
    if (!staticDir) {
      if (url.pathname === '/' || url.pathname === '/index.html') return reply(response, 200, NOT_BUILT_PAGE, 'text/html; charset=utf-8');
      return reply(response, 404, 'Not found.');
    }
    const found = await resolveStaticFile(staticDir, url.pathname);
    if (!found) return reply(response, 404, 'Not found.');
    return stream(response, found.path, contentTypeOf(found.path), found.size, found.path.endsWith('index.html') ? 'no-store' : 'private, max-age=300');
  }

  function stream(response: ServerResponse, path: string, type: string, size: number, cache: string): void {
    response.writeHead(200, { ...securityHeaders(port), 'content-type': type, 'content-length': String(size), 'cache-control': cache });
    if (response.req.method === 'HEAD') {
      response.end();
      return;
    }
    const file = createReadStream(path);
    file.on('error', () => response.destroy());
    file.pipe(response);
  }

  server.on('upgrade', (request: IncomingMessage, raw: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const refusal = !isOwnHost(request.headers.host, port) ? 'the Host is not this host'
      : !isOwnOrigin(request.headers.origin, port) ? 'the Origin is not this host'
      : !signedIn(request) ? 'no session cookie'
      : url.pathname !== '/contract' ? 'no such socket' : null;
    if (refusal) {
      log(`window host: a WebSocket was refused (${refusal})`);
      raw.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nRefused: ${refusal}.\r\n`);
      raw.destroy();
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
