import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../support/cli';
import { tempDir } from '../engine/cache/cache-fixtures';

const profile = tempDir('ui-command');
afterAll(() => rmSync(profile, { recursive: true, force: true }));

describe('design-sync ui', () => {
  it('refuses a port that is not a number, naming it', async () => {
    const run = await runCliCapturing(profile, ['ui', '--port', 'abc', '--no-open']);
    expect(run).toMatchObject({ code: 1, err: expect.stringMatching(/--port takes a port number from 0 to 65535.*"abc"/) });
    expect((await runCliCapturing(profile, ['ui', '--port', '70000', '--no-open'])).code).toBe(1);
  });

  it('says plainly that a port is in use, not EADDRINUSE', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
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
});
