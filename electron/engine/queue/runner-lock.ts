import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';

export class QueueLockedError extends Error {
  constructor(readonly pid: number, path: string) {
    super(`Another design-sync process (pid ${pid}) is already sending this profile's queue. Stop it first, or use another profile. (Lock: ${path})`);
    this.name = 'QueueLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(path: string): number | null {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** The live process (not this one) that holds the lock at `path`, or null: another process sends this profile's queue. */
export function runnerLockHolder(path: string): number | null {
  const pid = holder(path);
  return pid !== null && pid !== process.pid && isAlive(pid) ? pid : null;
}

/**
 * One queue runner per profile at a time (the app and `design-sync sync` on the same profile would take over
 * each other's items): a lock file beside the sync database naming the process that holds it. A lock left by
 * a process that is gone (a crash, kill -9) is taken over.
 */
export function acquireRunnerLock(path: string): () => void {
  const content = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
      return () => {
        if (holder(path) === process.pid) {
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = holder(path);
      if (pid !== null && pid !== process.pid && isAlive(pid)) throw new QueueLockedError(pid, path);
      try {
        unlinkSync(path); // stale: its process is gone
      } catch {
        // another process took it over first: the next attempt tells
      }
    }
  }
  throw new QueueLockedError(holder(path) ?? -1, path);
}
