import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A second real HTTP server on 127.0.0.1 that records every request it receives (method, address with its query,
 * headers). With `forwardTo`, it passes each request on to that service and its answer back (a recording proxy in
 * front of a second real local service, so that signing in to it works); without, it answers 404 to everything.
 */
export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** The recorded requests in which `secret` appears anywhere: address, query or any header. */
  carrying(secret: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingServer(forwardTo?: string): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((incoming, answer) => {
    requests.push({ method: incoming.method ?? '', url: incoming.url ?? '', headers: { ...incoming.headers } });
    if (!forwardTo) {
      incoming.resume();
      answer.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const target = new URL(incoming.url ?? '/', forwardTo);
    const outgoing = request(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (upstream) => {
      answer.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(answer);
    });
    outgoing.on('error', () => answer.writeHead(502).end());
    incoming.pipe(outgoing);
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    carrying: (secret) => requests.filter((r) => r.url.includes(secret) || Object.values(r.headers).some((value) => String(value).includes(secret))),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
