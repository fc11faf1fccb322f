import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * Services that misbehave, each a small node:http server on 127.0.0.1 scripted by the test: one that drips its answer,
 * never answers, sends a body without end, cuts its answer short, loops redirects, answers with a web page… The
 * client under test talks to it over real HTTP, as it would to a broken service or a proxy in front of one.
 */

export interface SeenRequest {
  method: string;
  /** Path and query, as sent (the query may hold auth_token). */
  url: string;
  path: string;
  query: URLSearchParams;
}

export type Script = (request: IncomingMessage, response: ServerResponse, seen: SeenRequest) => void | Promise<void>;

export interface MisbehavingService {
  url: string;
  host: string;
  requests: SeenRequest[];
  /** Bytes of answer bodies the server managed to hand to its sockets (what the client was sent, at most). */
  bytesWritten(): number;
  /** Resolves once `count` requests came (or fails after `timeoutMs`). */
  requested(count: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startMisbehavingService(script: Script): Promise<MisbehavingService> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];
  let written = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const seen = { method: request.method ?? 'GET', url: request.url ?? '/', path: url.pathname, query: url.searchParams };
    requests.push(seen);
    for (const wake of waiters.splice(0)) wake();
    const write = response.write.bind(response);
    response.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      return write(chunk, ...rest);
    }) as typeof response.write;
    Promise.resolve(script(request, response, seen)).catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    bytesWritten: () => written,
    async requested(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${count} requests (${requests.length} came)`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Ways to answer, for scripts.

export function sendJson(response: ServerResponse, body: unknown, status = 200, headers: Record<string, string | number> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export function sendText(response: ServerResponse, text: string, status = 200, contentType = 'text/plain', headers: Record<string, string | number> = {}): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export const WEB_PAGE = '<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>\n';

/** Sends `text` one byte every `everyMs` (the headers at once), until it is all sent or the client goes away. */
export function drip(response: ServerResponse, text: string, everyMs: number, headers: Record<string, string | number> = {}): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  let at = 0;
  const timer = setInterval(() => {
    if (response.destroyed || at >= text.length) {
      clearInterval(timer);
      if (!response.destroyed) response.end();
      return;
    }
    response.write(text[at++]!);
  }, everyMs);
  response.once('close', () => clearInterval(timer));
}

/** Sends the headers, then a body that never ends (chunked), as fast as the client takes it, until it goes away. */
export function endlessBody(response: ServerResponse, options: { start?: string; piece?: string; contentType?: string } = {}): void {
  response.writeHead(200, { 'content-type': options.contentType ?? 'application/json' });
  const piece = Buffer.from((options.piece ?? '{"id":1,"name":"again and again"},').repeat(2048));
  if (options.start) response.write(options.start);
  const pump = () => {
    while (!response.destroyed && response.write(piece));
    if (!response.destroyed) response.once('drain', pump);
  };
  pump();
}

/** Announces `declared` bytes, sends `sent` of them (from `text`, padded), then closes the connection. */
export function truncated(response: ServerResponse, text: string, cutAt: number): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.write(text.slice(0, cutAt), () => response.socket?.destroy());
}

/** Never answers (the connection stays open until the client gives up or the server stops). */
export function neverAnswer(): void {
  // nothing: the request waits
}

/** A list of `count` designs whose ids start at `from`. */
export function designs(count: number, from = 1): Array<{ id: number; name: string; slug: string; excerpt: string }> {
  return Array.from({ length: count }, (_, i) => ({ id: from + i, name: `Design ${from + i}`, slug: `design-${from + i}`, excerpt: 'x' }));
}

/**
 * A TCP listener that never accepts: its accept queue is filled, so a new connection attempt hangs in SYN (what a
 * host dropping packets does), and only a connect timeout ends it. The listener lives in a worker thread whose event
 * loop is held, so the kernel completes no more handshakes for it.
 */
export async function startUnacceptingListener(): Promise<{ url: string; host: string; stop(): Promise<void> }> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    const net = require('node:net');
    const server = net.createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      parentPort.postMessage(server.address().port);
      while (Atomics.load(workerData, 0) === 0) Atomics.wait(workerData, 0, 0, 100);
      server.close();
    });`, { eval: true, workerData: flag });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Fill the accept queue: connections that complete in the kernel, never accepted, until one no longer completes.
  const fillers: Socket[] = [];
  for (let i = 0; i < 16; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 200);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) break;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    async stop() {
      for (const socket of fillers) socket.destroy();
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      await worker.terminate();
    },
  };
}

/** A TCP server that answers anything with bytes that are not HTTP, then closes. */
export async function startNotHttpServer(): Promise<{ url: string; host: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.end('SSH-2.0-OpenSSH_9.2p1 Debian\r\n\r\n\x00\x01garbage');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For a test file: a function that starts a misbehaving service on a script, each one stopped after the test that
 * started it (registered with vitest's afterEach); `stopAfterTest` does the same for a server made otherwise.
 */
export function useMisbehavingServices(afterEach: (cleanup: () => Promise<void>) => void) {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });
  const start = async (script: Script): Promise<MisbehavingService> => {
    const started = await startMisbehavingService(script);
    stops.push(() => started.stop());
    return started;
  };
  return Object.assign(start, { stopAfterTest: (server: { stop(): Promise<void> }) => void stops.push(() => server.stop()) });
}
