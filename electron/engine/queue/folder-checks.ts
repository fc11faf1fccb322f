import { lstat } from 'node:fs/promises';
import type { SyncFolder } from '../sync-state/sync-root';
import { absolutePath, currentVersion, sameVersion } from './file-version';
import { NoSyncFolderError } from './job';
import type { QueueStore } from './queue-store';
import type { QueueItem } from './queue-item';

/**
 * What the runner asks of the sync folder on disk when an attempt fails: is the folder itself still there (a missing
 * folder must never read as removed files), is the file still there, did it change while it was being sent.
 */
export class FolderChecks {
  constructor(private readonly store: Pick<QueueStore, 'get'>, private readonly syncFolder: SyncFolder, private readonly fixedRoot: string | undefined) {}

  /** The sync folder on disk (throws NoSyncFolderError when none is chosen). */
  root(): string {
    if (this.fixedRoot) return this.fixedRoot;
    const row = this.syncFolder.current();
    if (!row) throw new NoSyncFolderError();
    return row.path;
  }

  /** Why the sync folder is not there, or not ours (missing, an empty mount point in its place…), or null. */
  async rootProblem(): Promise<string | null> {
    if (!this.fixedRoot) {
      const check = this.syncFolder.verify();
      // No folder chosen at all is NoSyncFolderError's to say.
      return check.ok || !this.syncFolder.current() ? null : check.reason;
    }
    try {
      if ((await lstat(this.fixedRoot)).isDirectory()) return null;
      return `The sync folder ${this.fixedRoot} is no longer a folder. Sync is stopped; nothing was changed on the service.`;
    } catch {
      return `The sync folder ${this.fixedRoot} is missing (disk unmounted or folder moved?). Sync is stopped; nothing was changed on the service.`;
    }
  }

  async fileStillThere(path: string): Promise<boolean> {
    try {
      return (await currentVersion(absolutePath(this.root(), path))) !== null;
    } catch {
      return true;
    }
  }

  /** Whether the file an upload or replace was sending is no longer the version it started with. */
  async changedWhileSent(item: QueueItem): Promise<boolean> {
    if (!item.path || (item.kind !== 'upload' && item.kind !== 'replace')) return false;
    const sent = this.store.get(item.id)?.sent;
    if (!sent || sent.size === null || sent.mtimeMs === null) return false;
    try {
      const now = await currentVersion(absolutePath(this.root(), item.path));
      return !now || !sameVersion(now, { size: sent.size, mtimeMs: sent.mtimeMs });
    } catch {
      return false;
    }
  }
}
