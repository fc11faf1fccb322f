/**
 * The index thread (a worker_threads Worker started by index-thread.ts): its own connection to the cache's WAL
 * database, on which the indexes a bulk fill set aside are made again, one a request, so that a CREATE INDEX over
 * every cached design (0.1–0.3 s at 100,000 designs, seconds at a million) never holds the engine's thread.
 */
import { databaseThreadStart } from '../sqlite/database-thread';
import { remakeOneSetAsideIndex } from './bulk-fill';
import { openCacheDatabase } from './cache-database';
import type { IndexReply, IndexRequest } from './index-thread-protocol';

const { port, databasePath } = databaseThreadStart();
const db = openCacheDatabase(databasePath);

const reply = (message: IndexReply) => port.postMessage(message);

port.on('message', (request: IndexRequest) => {
  if (request.kind === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    reply({ kind: 'remade', made: remakeOneSetAsideIndex(db) });
  } catch (error) {
    reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
