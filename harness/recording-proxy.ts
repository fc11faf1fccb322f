import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';

/**
 * A small HTTP proxy on loopback for tests: CONNECT tunnels and absolute-URI forwarding, each request it is asked
 * recorded (its request line and its Proxy-Authorization). `hosts` maps names only the proxy knows (designs.test) to
 * loopback, so a request that reaches the service at such a name certainly went through the proxy. It can demand
 * credentials (407 until the right Basic credentials come) or refuse tunnels.
 */
export interface ProxyRecord {
  /** "GET http://designs.test:4010/v1/designs?…" or "CONNECT files.test:443". */
  line: string;
  method: string;
  /** The target's host:port. */
  target: string;
  proxyAuthorization: string | null;
  /** What the proxy answered itself (407, 403), or null when it forwarded. */
  refusedWith: number | null;
}

export interface RecordingProxyOptions {
  /** Names the proxy resolves itself: name → loopback address. */
  hosts?: Record<string, string>;
  /** When set, only these credentials are let through; other requests get 407. */
  credentials?: { username: string; password: string };
  /** CONNECT is answered with this status instead of a tunnel. */
  refuseTunnelsWith?: number;
}

export interface RecordingProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  /** 127.0.0.1:<port>, as messages name it. */
  shown: string;
  port: number;
  records: ProxyRecord[];
  stop(): Promise<void>;
}

export async function startRecordingProxy(options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  const records: ProxyRecord[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`
    : null;
  const resolveHost = (host: string) => options.hosts?.[host] ?? host;

  function record(request: IncomingMessage, target: string, refusedWith: number | null): void {
    const authorization = request.headers['proxy-authorization'];
    records.push({
      line: `${request.method} ${request.url}`, method: request.method ?? '', target,
      proxyAuthorization: typeof authorization === 'string' ? authorization : null, refusedWith,
    });
  }
  const allowed = (request: IncomingMessage) => expected === null || request.headers['proxy-authorization'] === expected;

  const server: Server = createServer((request, response) => {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      record(request, '', 400);
      response.writeHead(400).end('absolute URI expected');
      return;
    }
    const port = target.port || '80';
    if (!allowed(request)) {
      record(request, `${target.hostname}:${port}`, 407);
      request.resume();
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test proxy"', 'content-type': 'text/plain' }).end('proxy authentication required');
      return;
    }
    record(request, `${target.hostname}:${port}`, null);
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: resolveHost(target.hostname), port, method: request.method, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end('bad gateway');
      else response.destroy();
    });
    request.pipe(upstream);
  });

  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const [host, port = '443'] = (request.url ?? '').split(':');
    const target = `${host}:${port}`;
    if (!allowed(request)) {
      record(request, target, 407);
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test proxy"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (options.refuseTunnelsWith) {
      record(request, target, options.refuseTunnelsWith);
      client.end(`HTTP/1.1 ${options.refuseTunnelsWith} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    record(request, target, null);
    const upstream = netConnect(Number(port), resolveHost(host!), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    shown: `127.0.0.1:${port}`,
    port,
    records,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
