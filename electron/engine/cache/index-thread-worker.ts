/**
 * The index thread (a worker_threads Worker started by index-thread.ts): its own connection to the cache's WAL
 * database, on which the indexes a bulk fill set aside are made again, one a request, so that a CREATE INDEX over
 * every cached design (0.1–0.3 s at 100,000 designs, seconds at a million) never holds the engine's thread.
 */
import { answerEachRequest, databaseThreadStart } from '../sqlite/database-thread';
import { remakeOneSetAsideIndex } from './bulk-fill';
import { openCacheDatabase } from './cache-database';
import type { IndexReply, IndexRequest } from './index-thread-protocol';

const { port, databasePath } = databaseThreadStart();
const db = openCacheDatabase(databasePath);

answerEachRequest<IndexRequest, IndexReply>(port, db, () => ({ kind: 'remade', made: remakeOneSetAsideIndex(db) }));
