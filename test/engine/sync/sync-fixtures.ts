import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import type { QueueItem } from '../../../electron/engine/queue/queue-store';
import type { SyncEvent } from '../../../electron/engine/sync/sync-context';
import { openSyncDatabase, type SyncDatabase } from '../../../electron/engine/sync/sync-database';
import { SyncEngine, type SyncEngineOptions } from '../../../electron/engine/sync/sync-engine';
import { tempDir } from '../cache/cache-fixtures';

/** One "computer": a profile directory with its sync database, a sync root, and the engine on them. */
export interface Computer {
  profile: string;
  rootPath: string;
  db: SyncDatabase;
  client: ServiceClient;
  engine: SyncEngine;
  events: SyncEvent[];
  dispose(): Promise<void>;
}

export function clientFor(url: string, token: string): ServiceClient {
  return new ServiceClient({ baseUrl: url, token: () => token, retry: { retries: 1, minDelayMs: 5, maxDelayMs: 10 } });
}

export function makeComputer(url: string, token: string, options: Partial<SyncEngineOptions> & { root?: string } = {}): Computer {
  const profile = tempDir('sync-profile');
  const rootParent = options.root ? null : tempDir('sync-root');
  const rootPath = options.root ?? join(rootParent!, 'Designs');
  mkdirSync(rootPath, { recursive: true });
  const db = openSyncDatabase(join(profile, 'sync.sqlite'));
  const client = options.client ?? clientFor(url, token);
  const engine = new SyncEngine({ db, client, settleMs: 120, maxSettleWaitMs: 10_000, trash: 'folder', ...options });
  engine.root.choose(rootPath, { profileDir: profile });
  const events: SyncEvent[] = [];
  engine.on('event', (event) => events.push(event));
  return {
    profile, rootPath: engine.root.current()!.path, db, client, engine, events,
    async dispose() {
      await engine.stop();
      db.close();
      rmSync(profile, { recursive: true, force: true });
      rmSync(rootParent ?? rootPath, { recursive: true, force: true });
    },
  };
}

/**
 * Sends the queue's waiting items, the simplest way, and records the last synced state as the queue runner
 * does. Only for these tests, which are about what sync decides; the real runner (electron/engine/queue) is
 * tested on its own.
 */
export async function sendQueue(computer: Computer): Promise<QueueItem[]> {
  const { engine, client, rootPath } = computer;
  const sent: QueueItem[] = [];
  for (let item = engine.queue.claimNext(); item; item = engine.queue.claimNext()) {
    sent.push(item);
    const path = item.path ?? '';
    const abs = join(rootPath, path);
    const stat = () => {
      const s = statSync(abs);
      return { size: s.size, mtimeMs: Math.floor(s.mtimeMs), inode: `${s.dev}:${s.ino}` };
    };
    switch (item.kind) {
      case 'upload': {
        const name = (item.payload.name as string | undefined) ?? path.split('/').pop()!;
        const remote = item.fileKind === 'image'
          ? await client.uploadImage(item.designId!, { path: abs, fileName: name }, { name })
          : await client.uploadDocument(item.designId!, { path: abs, fileName: name }, { name });
        engine.base.record({
          path, folder: item.folder!, designId: item.designId!, kind: item.fileKind!, remoteId: remote.id, remoteName: remote.name,
          remoteUpdatedAt: remote.updated_at, ...stat(), sha1: item.fileSha1!, syncedAt: Date.now(),
        });
        break;
      }
      case 'replace': {
        const base = engine.base.get(path)!;
        if (item.fileKind === 'image') await client.updateImage(base.designId, item.remoteId!, {}, { path: abs, fileName: path.split('/').pop()! });
        else await client.updateDocument(base.designId, item.remoteId!, {}, { path: abs, fileName: path.split('/').pop()! });
        engine.base.record({ ...base, ...stat(), sha1: item.fileSha1! });
        break;
      }
      case 'rename': {
        const base = engine.base.get(item.payload.fromPath as string)!;
        const name = item.payload.newName as string;
        if (item.fileKind === 'image') await client.updateImage(base.designId, item.remoteId!, { name });
        else await client.updateDocument(base.designId, item.remoteId!, { name });
        engine.base.move(base.path, path, { remoteName: name, ...stat() });
        break;
      }
      case 'delete-remote': {
        const base = engine.base.get(path)!;
        if (item.fileKind === 'image') await client.deleteImage(base.designId, item.remoteId!);
        else await client.deleteDocument(base.designId, item.remoteId!);
        engine.base.remove(path);
        break;
      }
      case 'create-design': {
        const design = await client.createDesign({ name: item.payload.name as string, excerpt: item.payload.excerpt as string, license: item.payload.license as string });
        engine.folders.link(item.folder!, design.id);
        break;
      }
    }
    engine.queue.done(item.id);
  }
  return sent;
}

export const pending = (computer: Computer) => computer.engine.queue.list({ states: ['waiting', 'attention', 'running'] });
