/**
 * The checkpoint thread (a worker_threads Worker started by checkpoint-thread.ts): its own connection to the cache's
 * WAL database, on which the WAL a large pull writes is copied into the database, so that a checkpoint of tens of
 * MiB (with its fsync) never holds the engine's thread. It never writes a row: a passive checkpoint takes no lock
 * that a writer or a reader waits for.
 */
import { answerEachRequest, databaseThreadStart } from '../sqlite/database-thread';
import { openCacheDatabase } from './cache-database';
import type { CheckpointReply, CheckpointRequest } from './checkpoint-thread-protocol';

const { port, databasePath } = databaseThreadStart();
const db = openCacheDatabase(databasePath);

answerEachRequest<CheckpointRequest, CheckpointReply>(port, db, () => {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
  return { kind: 'checkpointed', walFrames: result?.log ?? 0, checkpointedFrames: result?.checkpointed ?? 0 };
});
port.postMessage({ kind: 'ready' } satisfies CheckpointReply);
