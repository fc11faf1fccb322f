import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { closedPort } from '../support/free-port';
import { cookieOf, fakeEndpoint, raw } from './host-fixtures';

let host: WindowHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('the window host before the window is built', () => {
  for (const [what, staticDir] of [['no build folder', null], ['a build folder without index.html', 'empty']] as const) {
    it(`serves a plain page saying so, without script (${what})`, async () => {
      const dir = staticDir && mkdtempSync(join(tmpdir(), 'design-sync-empty-window-'));
      try {
        host = await startWindowHost({ endpoint: fakeEndpoint(), staticDir: dir });
        const cookie = await cookieOf(host.port, host.url);
        const page = await raw(host.port, '/', { cookie });
        expect(page.status).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.body).toMatch(/not built yet/);
        expect(page.body).toContain('/contract');
        expect(page.body).not.toMatch(/<script|on\w+=/i);
        expect(page.headers['content-security-policy']).toContain("script-src 'self'");
        expect((await raw(host.port, '/assets/app.js', { cookie })).status).toBe(404);
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('listens on the port asked for, and says plainly when it is taken', async () => {
    const port = await closedPort();
    host = await startWindowHost({ endpoint: fakeEndpoint(), port });
    expect(host.port).toBe(port);
    expect(host.url.startsWith(`http://127.0.0.1:${port}/?secret=`)).toBe(true);
    await expect(startWindowHost({ endpoint: fakeEndpoint(), port })).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
  });

  it('stops listening and leaves the endpoint when closed', async () => {
    const endpoint = fakeEndpoint();
    const started = await startWindowHost({ endpoint });
    expect(endpoint.listenerCount()).toBe(1);
    await started.close();
    expect(endpoint.listenerCount()).toBe(0);
    await expect(raw(started.port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});
