/**
 * The exact-count thread (a worker_threads Worker started by count-thread.ts): a read-only connection to the cache's
 * WAL database that counts every match of a filter, so that a count of a million designs (up to a second) never
 * holds the engine's thread; and reads the narrow index through when the window opens a large cache.
 */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import type { ReadableDB } from './cache-database';
import { countCachedDesigns } from './design-reads';
import { readNarrowIndexThrough } from './index-warm-up';
import { answerEachRequest, databaseThreadStart } from '../sqlite/database-thread';
import { openSqlite } from '../sqlite/open-sqlite';
import type { CountReply, CountRequest } from './count-thread-protocol';

/**
 * This thread's scheduling priority lowered as far as it goes, where the system says which thread it is (Linux:
 * /proc/thread-self): a count takes up to a second of one core, which the window and the engine need more.
 */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isSafeInteger(threadId) && threadId > 0) setPriority(threadId, constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux, or not allowed: the count runs at the engine's priority.
  }
}

lowerThisThreadsPriority();
const { port, databasePath } = databaseThreadStart();
const db = openSqlite(databasePath, { readonly: true, fileMustExist: true }) as ReadableDB;
db.pragma('busy_timeout = 5000');

answerEachRequest<CountRequest, CountReply>(port, db, (request) => ({
  kind: 'counted',
  total: request.kind === 'read-index-through' ? readNarrowIndexThrough(db) : countCachedDesigns(db, { query: request.query, license: request.licenses }),
}));
port.postMessage({ kind: 'ready' } satisfies CountReply);
