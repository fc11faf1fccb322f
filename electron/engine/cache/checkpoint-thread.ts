import type { Worker } from 'node:worker_threads';
import { RunningThreads, startDatabaseThread } from '../sqlite/database-thread';
import type { CheckpointReply, CheckpointRequest } from './checkpoint-thread-protocol';

const running = new RunningThreads();

/** Checkpoint threads started and not yet exited, in this process (none once every pull has ended). */
export function runningCheckpointThreads(): number {
  return running.count;
}

/**
 * A thread of its own (checkpoint-thread-worker.ts) that checkpoints the WAL of the cache at `databasePath` when asked,
 * one checkpoint at a time. Once it failed (or stopped) it is not asked again: `failed` says so, and its caller
 * leaves the checkpoints to SQLite's automatic ones.
 */
export class CheckpointThread {
  ready = false;
  readonly whenReady: Promise<boolean>;
  private onReady: (ready: boolean) => void = () => {};
  private readonly worker: Worker;
  private waiting: { resolve(reply: CheckpointReply): void; reject(error: Error): void } | null = null;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(databasePath: string) {
    this.whenReady = new Promise((resolve) => (this.onReady = resolve));
    const thread = startDatabaseThread(new URL('./checkpoint-thread-worker.ts', import.meta.url), 'checkpoint-thread-worker.mjs', databasePath, running);
    this.worker = thread.worker;
    this.worker.on('message', (reply: CheckpointReply) => {
      if (reply.kind === 'ready') {
        this.ready = true;
        this.onReady(true);
        return;
      }
      const waiter = this.waiting;
      this.waiting = null;
      if (reply.kind === 'failed') waiter?.reject(new Error(reply.message));
      else waiter?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.exited = thread.exited.then(() => this.fail(new Error('The cache\'s checkpoint thread stopped.')));
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Copies the WAL into the database, as far as the cache's readers let it; resolves with SQLite's answer. */
  checkpoint(): Promise<Extract<CheckpointReply, { kind: 'checkpointed' }>> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('A checkpoint is already under way.'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve: resolve as (reply: CheckpointReply) => void, reject };
      this.worker.postMessage({ kind: 'checkpoint' } satisfies CheckpointRequest);
    });
  }

  /** Ends the thread once its checkpoint under way, if any, is done. */
  async close(): Promise<void> {
    if (!this.failure) this.worker.postMessage({ kind: 'close' } satisfies CheckpointRequest);
    // A thread still starting (or stuck) is not waited for long: a checkpoint not made is left to SQLite's next one.
    const timer = setTimeout(() => void this.worker.terminate(), 5_000);
    await this.exited;
    clearTimeout(timer);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.onReady(false);
    this.waiting?.reject(this.failure);
    this.waiting = null;
  }
}
