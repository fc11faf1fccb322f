import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP link on 127.0.0.1 to `target` (host:port) whose client-to-service direction can be held to a rate, as a slow
 * uplink is: each connection sends at most `bytesPerSecond`. Answers come back at full speed. No rate: a plain pipe.
 */
export interface ThrottledLink {
  /** `http://127.0.0.1:<port>`: the address to give the client in place of the service's. */
  url: string;
  setUploadRate(bytesPerSecond: number | null): void;
  /**
   * Every piece the link passed so far, in order: when it passed (performance.now()), which way ('up': to the service,
   * 'down': to the client) and its size. What a test measures a client's own pace by.
   */
  readonly traffic: { at: number; direction: 'up' | 'down'; bytes: number }[];
  close(): Promise<void>;
}

export async function startThrottledLink(target: URL): Promise<ThrottledLink> {
  let rate: number | null = null;
  const traffic: ThrottledLink['traffic'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const service = createConnection({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(service);
    const end = () => {
      client.destroy();
      service.destroy();
      sockets.delete(client);
      sockets.delete(service);
    };
    client.on('error', end).on('close', end);
    service.on('error', end).on('close', end);
    service.on('data', (chunk: Buffer) => traffic.push({ at: performance.now(), direction: 'down', bytes: chunk.length }));
    service.pipe(client);
    client.on('data', (chunk: Buffer) => {
      traffic.push({ at: performance.now(), direction: 'up', bytes: chunk.length });
      service.write(chunk);
      if (rate === null) return;
      // Paused for as long as this chunk takes at the rate: the client's sends back up into its own buffers.
      client.pause();
      setTimeout(() => client.resume(), (chunk.length / rate) * 1000);
    });
    client.on('end', () => service.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    setUploadRate(bytesPerSecond) {
      rate = bytesPerSecond;
    },
    traffic,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
