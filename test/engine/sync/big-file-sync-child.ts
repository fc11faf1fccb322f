/**
 * Child process of sync-big-file.test.ts, so that its memory is its own: a profile with a sync folder whose design
 * folder holds a sparse file larger than 1 GB, synced against the service at argv[2] through the whole path (scan →
 * settle → SHA-1 → queue → the real QueueRunner's streamed upload → base_files), then a second pass. Prints one JSON
 * line: RSS before and at its peak (sampled every 20 ms), and what the pass and the queue did.
 *
 *   node electron/launcher/run-source.mjs test/engine/sync/big-file-sync-child.ts <service url> <token> <work dir> <size in bytes>
 */
import { closeSync, ftruncateSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { Session } from '../../../electron/engine/authorization/session';
import { openDesignCache } from '../../../electron/engine/cache/design-cache';
import { QueueRunner, queueClient } from '../../../electron/engine/queue/queue-runner';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { assemble } from '../../../harness/sync-computers';

const [url, token, work, sizeArg] = process.argv.slice(2);
if (!url || !token || !work || !sizeArg) throw new Error('usage: big-file-sync-child.ts <url> <token> <work dir> <size>');
const size = Number(sizeArg);

const profile = join(work, 'profile');
const root = join(work, 'Designs');
mkdirSync(profile, { recursive: true });
const db = openSyncDatabase(join(profile, 'sync.sqlite'));
const session = new Session(new MemoryTokenStore(token));
await session.load();
const cache = openDesignCache({ cacheDatabase: join(profile, 'cache.sqlite'), fileCache: join(profile, 'files') });
const { sync: engine } = assemble({ url, db, cache, session, settleMs: 100, tuning: { maxSettleWaitMs: 30_000 } });
engine.root.choose(root, { profileDir: profile });
const runner = new QueueRunner({ store: engine.queue, session, client: queueClient(session, url, 'design-sync-test'), settleMs: 100, followOtherProcesses: false });

// The own design's folder is made by a first pass; the big file goes into it.
const first = await engine.syncOnce({ settle: 'wait' });
const folder = first.createdFolders[0];
if (!folder) throw new Error(`no design folder was made: ${JSON.stringify(first)}`);
const file = join(root, folder, 'huge.bin');
const fd = openSync(file, 'w');
ftruncateSync(fd, size);
closeSync(fd);

global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = Date.now();
const pass = await engine.syncOnce({ settle: 'wait' });
const scannedMs = Date.now() - started;
runner.start();
await runner.waitForIdle({ timeoutMs: 120_000 });
const sentMs = Date.now() - started - scannedMs;
// A second pass: the file is synced, nothing to send or to bring back.
const again = await engine.syncOnce({ settle: 'wait' });
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);

const items = engine.queue.list().map((item) => ({ kind: item.kind, path: item.path, state: item.state, reason: item.reason, bytesSent: item.bytesSent }));
const base = engine.base.get(`${folder}/huge.bin`);
await runner.stop();
await engine.stop();
db.close();
process.stdout.write(`${JSON.stringify({
  before, peak, scannedMs, sentMs, folder, file, enqueued: pass.scan?.enqueued ?? null, items, base,
  again: { enqueued: again.scan?.enqueued ?? null, downloaded: again.remote?.downloaded ?? null, conflicts: again.remote?.conflicts ?? null },
})}\n`);
