import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { syncView } from '../../../electron/engine/contract/views/sync-view';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../../electron/engine/settings/settings-store';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';
import { servicesOf } from '../../../electron/engine/composition/engine-services';

const REPO = resolve(import.meta.dirname, '../../..');
let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('killed').token;
});
afterAll(async () => service.stop());

const openProfile = (profileDir: string) => openEngine({
  profileDir, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: 50, trash: 'folder',
  tokenStore: () => new MemoryTokenStore(token),
  settingsStore: () => memorySettingsStore({ contentPolicyAcceptedAt: new Date().toISOString() }),
});

describe('the sync status after a process killed with kill -9', () => {
  it('leaves no "syncing" behind: nothing of what ran is stored, and the next start tells what is true', async () => {
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Killed bracket', excerpt: 'x', license: 'cc0' });
    const profile = tempDir('status-crash-profile');
    const root = join(tempDir('status-crash-root'), 'Designs');
    try {
      const before = await openProfile(profile);
      await before.sync.chooseFolder(root);
      await before.sync.syncParts().sync.syncOnce({ settle: 'wait' });
      const folder = before.sync.syncParts().sync.folders.ofDesign(design.id)!.folder;
      const database = before.queue.db.name;
      await before.close();
      for (let i = 0; i < 4; i++) writeFileSync(join(root, folder, `part-${i}.stl`), `solid part${i}\nendsolid part${i}\n`);
      // Uploads stay under way long enough to be killed in the middle of them.
      await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 20_000, method: 'POST', path: `^/v1/designs/${design.id}/documents$`, count: 10 } });

      const child = spawn(process.execPath, ['electron/launcher/run-source.mjs', 'test/engine/runtime/sync-status-crash-child.ts', profile, service.url, token], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((done) => child.once('exit', done));
      await until('an upload under way in the child', () => output.includes('sending'), 30_000).catch((error: unknown) => {
        child.kill('SIGKILL');
        throw new Error(`${(error as Error).message}\n${output}`);
      });
      child.kill('SIGKILL');
      await exited;
      await service.request('DELETE', '/__admin/faults');

      const db = openSyncDatabase(database);
      const row = db.prepare('SELECT state, reason FROM sync_status WHERE id = 1').get() as { state: string; reason: string | null };
      const running = (db.prepare(`SELECT count(*) AS n FROM queue_items WHERE state = 'running'`).get() as { n: number }).n;
      db.close();
      expect(running).toBeGreaterThan(0); // the kill happened mid-upload
      expect(row).toEqual({ state: 'idle', reason: null });

      const after = await openProfile(profile);
      try {
        expect(syncView(servicesOf(after))).toMatchObject({ state: 'paused', reasonCode: 'not-running', runState: 'idle' });
        await after.startBackground();
        await until('the uploads sent after the restart', () => after.queue.status().counts.done === 4, 30_000);
        await until('up to date', () => syncView(servicesOf(after)).state === 'up-to-date', 15_000);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(profile, { recursive: true, force: true });
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });
});
