import { RunningThreads, startDatabaseThread } from '../sqlite/database-thread';
import type { IndexReply, IndexRequest } from './index-thread-protocol';

const running = new RunningThreads();

/** Index threads started and not yet exited, in this process. */
export function runningIndexThreads(): number {
  return running.count;
}

/**
 * Makes again, on a thread of its own (index-thread-worker.ts), the indexes a bulk fill of the cache at `databasePath`
 * set aside, one at a time, until none is left or `stop()` says so between two; resolves with how many it made, once
 * the thread has ended. Each is made in a transaction of its own: meanwhile the cache's other writers wait for it
 * (their busy timeout; a pull's writer begins its transactions IMMEDIATE for that). Rejects when the thread failed; what it did not
 * make stays set aside (bulk-fill.ts), for whoever tries next.
 */
export async function remakeSetAsideIndexesOnThread(databasePath: string, stop: () => boolean): Promise<number> {
  const { worker, exited } = startDatabaseThread(new URL('./index-thread-worker.ts', import.meta.url), 'index-thread-worker.mjs', databasePath, running);
  const failure = new Promise<never>((_resolve, reject) => {
    worker.once('error', reject);
    void exited.then(() => reject(new Error('The index thread stopped.')));
  });
  failure.catch(() => {});
  try {
    let made = 0;
    while (!stop()) {
      worker.postMessage({ kind: 'remake-one' } satisfies IndexRequest);
      const reply = await Promise.race([new Promise<IndexReply>((resolve) => worker.once('message', resolve)), failure]);
      if (reply.kind === 'failed') throw new Error(reply.message);
      if (!reply.made) break;
      made++;
    }
    return made;
  } finally {
    worker.postMessage({ kind: 'close' } satisfies IndexRequest);
    // An index under way is let finish (SQLite's statement cannot be stopped part-way from here).
    await exited;
  }
}
