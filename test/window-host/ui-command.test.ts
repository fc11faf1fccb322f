import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../support/cli';
import { tempDir } from '../engine/cache/cache-fixtures';
import { deadline, raw } from './host-fixtures';

const profile = tempDir('ui-command');
afterAll(() => rmSync(profile, { recursive: true, force: true }));

describe('design-sync ui', () => {
  it('refuses a port that is not a port number, naming it', async () => {
    const run = await runCliCapturing(profile, ['ui', '--port', 'abc', '--no-open']);
    expect(run).toMatchObject({ code: 1, out: '' });
    expect(run.err).toMatch(/--port takes a port number from 0 to 65535.*"abc"/);
    for (const port of ['70000', '-1', '1.5', '']) {
      const refused = await runCliCapturing(profile, ['ui', '--port', port, '--no-open']);
      expect(refused.code, port).toBe(1);
      expect(refused.err, port).toMatch(/--port takes a port number/);
    }
  });

  it('says plainly that a port is in use, not EADDRINUSE', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = await runCliCapturing(profile, ['ui', '--port', String(port), '--no-open']);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
      expect(run.err).not.toMatch(/EADDRINUSE/);
    } finally {
      taken.close();
    }
  });

  it('prints one line with the address, serves it, and closes cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [resolve('bin/design-sync.mjs'), '--profile', profile, 'ui', '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    try {
      const line = await deadline(new Promise<string>((done) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) done(out.split('\n')[0]!);
        });
      }), 20_000, 'no address printed');
      expect(line).toMatch(/^window: http:\/\/127\.0\.0\.1:\d+\/\?secret=[A-Za-z0-9_-]{43}$/);
      const url = new URL(line.slice('window: '.length));
      const port = Number(url.port);
      expect((await raw(port, `/?secret=${url.searchParams.get('secret')}`)).status).toBe(303);
      expect((await raw(port, '/')).status).toBe(403);

      child.kill('SIGTERM');
      expect(await deadline(exited, 20_000, 'ui did not stop')).toBe(0);
      expect(out).toBe(`${line}\n`);
      expect(err).not.toMatch(/Error|at .*\.ts/);
      await expect(raw(port, '/')).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
