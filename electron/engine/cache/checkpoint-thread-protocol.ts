/** What the checkpoint thread (checkpoint-thread-worker.ts) is asked, one request at a time, and what it answers. */
export type CheckpointRequest = { kind: 'checkpoint' } | { kind: 'close' };

export type CheckpointReply =
  | { kind: 'ready' }
  /** SQLite's answer to `PRAGMA wal_checkpoint(PASSIVE)`: the WAL's frames, and how many of them are now in the database. */
  | { kind: 'checkpointed'; walFrames: number; checkpointedFrames: number }
  | { kind: 'failed'; message: string };
