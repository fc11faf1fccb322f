import { createServer, request as httpRequest, type Server } from 'node:http';

/** One request the proxy passed on: method, path without its query (no token), the service's status. */
export interface SeenRequest {
  method: string;
  path: string;
  status: number;
  at: number;
  /** Sent without a token (no auth_token in its query, no Authorization header). */
  anonymous: boolean;
}

const anonymousRequest = (url: string, headers: Record<string, unknown>) => !/[?&]auth_token=/.test(url) && headers.authorization === undefined;

export interface CountingProxyOptions {
  /**
   * Called once the service has answered a request, before the answer is passed on: a test holds an answer (the
   * service has done the work, the engine does not know yet) until the promise it returns settles.
   */
  beforeAnswer?: (request: { method: string; path: string }) => Promise<void> | undefined;
}

/**
 * A transparent HTTP proxy in front of the local service that writes down every request it passes on, so that tests
 * and benchmarks count what the engine asks of the service (the service itself stays untouched).
 */
export async function startCountingProxy(target: string, options: CountingProxyOptions = {}): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const to = new URL(target);
  const seen: SeenRequest[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const forward = httpRequest({
      host: to.hostname, port: to.port, method: incoming.method, path: incoming.url,
      headers: { ...incoming.headers, host: to.host },
    }, (answer) => {
      const method = incoming.method ?? 'GET';
      const path = (incoming.url ?? '').split('?')[0]!;
      seen.push({ method, path, status: answer.statusCode ?? 0, at: Date.now(), anonymous: anonymousRequest(incoming.url ?? '', incoming.headers) });
      const passOn = () => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      };
      const held = options.beforeAnswer?.({ method, path });
      if (held) void held.then(passOn, passOn);
      else passOn();
    });
    forward.on('error', (error) => {
      seen.push({ method: incoming.method ?? 'GET', path: (incoming.url ?? '').split('?')[0]!, status: 502, at: Date.now(), anonymous: anonymousRequest(incoming.url ?? '', incoming.headers) });
      outgoing.writeHead(502).end(String(error));
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
