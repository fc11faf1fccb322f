/**
 * The child of the crash test: opens the profile's sync database, queues every file of the sync folder's
 * "Crash" folder that has no queue item yet (all in one transaction), and runs the queue until it is idle.
 * The parent kills it with SIGKILL at random moments and starts it again.
 *
 *   node electron/launcher/run-source.mjs test/engine/queue/crash-runner.ts <sync.sqlite> <service url> <token> <design id>
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { QueueRunner, queueClient } from '../../../electron/engine/queue/queue-runner';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';

const [databasePath, serviceUrl, token, designIdText] = process.argv.slice(2);
if (!databasePath || !serviceUrl || !token || !designIdText) throw new Error('usage: crash-runner <sync.sqlite> <service url> <token> <design id>');
const designId = Number(designIdText);

const db = openSyncDatabase(databasePath);
const store = new QueueStore(db);
const root = (db.prepare('SELECT path FROM sync_root WHERE id = 1').get() as { path: string }).path;
const names = readdirSync(join(root, 'Crash')).sort();
const queued = db.transaction(() => {
  let count = 0;
  for (const name of names) {
    const path = `Crash/${name}`;
    if (db.prepare('SELECT 1 FROM queue_items WHERE path = ?').get(path)) continue;
    const stat = statSync(join(root, 'Crash', name));
    const fileKind = name.endsWith('.png') ? 'image' : 'document';
    store.enqueue({ kind: 'upload', path, folder: 'Crash', designId, fileKind, file: { size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) } });
    count++;
  }
  return count;
})();

const session = new Session(new MemoryTokenStore(token));
await session.load();
const runner = new QueueRunner({ store, session, client: queueClient(session, serviceUrl), followOtherProcesses: false });
const keepAlive = setInterval(() => {}, 60_000);
runner.start();
process.stdout.write(`running (queued ${queued} new)\n`);
await runner.waitForIdle();
await runner.stop();
clearInterval(keepAlive);
db.close();
process.stdout.write('idle\n');
