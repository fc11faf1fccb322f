import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceContext } from '../../service/server/start-service';
import { createUser } from '../../service/users/user-accounts';
import { startTestService } from '../../harness/local-service';

/** `npm run service -- token`: a token for a user without going through the browser, for scripts and tests. */

const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

interface Outcome { code: number; stdout: string; stderr: string }

function tokenCommand(dataDir: string, user: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['electron/launcher/run-source.mjs', 'service/cli.ts', 'token', '--data', dataDir, '--user', user], { cwd: PROJECT_ROOT, timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
}

describe('the token command', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'design-sync-token-'));
    const ctx = openServiceContext({ dataDir });
    createUser(ctx.db, { screenName: 'scripted', password: 'secret', now: Date.now() });
    ctx.db.close();
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a token that works against a service started on the same data directory, the same one each time', async () => {
    const first = await tokenCommand(dataDir, 'scripted');
    expect(first.code).toBe(0);
    const token = first.stdout.trim();
    expect(token).toMatch(/^[\w-]{20,}$/);
    expect((await tokenCommand(dataDir, 'scripted')).stdout.trim()).toBe(token);

    const service = await startTestService({ dataDir });
    try {
      const me = await service.request('GET', '/v1/user/whoami', { token });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ screen_name: 'scripted' });
    } finally {
      await service.stop();
    }
  });

  it('fails with a clear message for an unknown user', async () => {
    const outcome = await tokenCommand(dataDir, 'nobody');
    expect(outcome.code).not.toBe(0);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('no user with screen name "nobody"');
  });
});
