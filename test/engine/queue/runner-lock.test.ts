import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireRunnerLock, QueueLockedError } from '../../../electron/engine/queue/runner-lock';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';

const dir = mkdtempSync(join(tmpdir(), 'design-sync-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one queue runner per profile', () => {
  it('refuses while another live process holds the lock, naming it', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const path = join(dir, 'held.lock');
      writeFileSync(path, JSON.stringify({ pid: other.pid }));
      expect(() => acquireRunnerLock(path)).toThrow(QueueLockedError);
      expect(() => acquireRunnerLock(path)).toThrow(new RegExp(`pid ${other.pid}`));
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that is gone, and releases it', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const path = join(dir, 'stale.lock');
    writeFileSync(path, JSON.stringify({ pid: gone.pid }));
    const release = acquireRunnerLock(path);
    expect(existsSync(path)).toBe(true);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it('sends nothing while sync is stopped (a vanished folder), and resumes when it is not', () => {
    const db = openSyncDatabase(join(dir, 'sync.sqlite'));
    try {
      const store = new QueueStore(db);
      store.enqueue({ kind: 'upload', path: 'gear/gear.stl', folder: 'gear', designId: 1, fileKind: 'document', file: { size: 1, mtimeMs: 1 } });
      store.setRunState('stopped', 'The sync folder is missing.');
      expect(store.claimNext()).toBeNull();
      store.setRunState('idle');
      expect(store.claimNext()?.path).toBe('gear/gear.stl');
    } finally {
      db.close();
    }
  });
});
