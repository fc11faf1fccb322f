import { createServer } from 'node:net';

/** Whether nothing listens on `port` of 127.0.0.1 now (a listener of ours is opened and closed at once to know). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
