import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { QueueStore } from './queue-store';
import { engineLog } from '../log/engine-log';

/**
 * Notices changes other processes make to the queue (`design-sync queue retry|cancel|pause` while the app runs): a
 * file watch on the database's folder, confirmed with PRAGMA data_version (our own commits do not change it). No
 * polling. Returns the function that stops following.
 */
export function followOtherProcesses(store: QueueStore, changed: () => void): () => void {
  const file = store.db.name;
  const written = store.changedSince();
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: ReturnType<typeof watch> | null = null;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, touched) => {
      if (touched !== null && !String(touched).startsWith(name)) return;
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (written()) changed();
      }, 50);
      timer.unref();
    });
    watcher.on('error', () => {
      watcher?.close();
      watcher = null;
    });
  } catch (error) {
    // Without a watch, other processes' changes are seen at the next wake-up.
    engineLog.warn('queue', 'the sync database cannot be watched for other processes\' changes', error);
  }
  return () => {
    watcher?.close();
    watcher = null;
    clearTimeout(timer);
  };
}
