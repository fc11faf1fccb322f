import type { EngineWords } from '../../../shared/i18n/engine-words';
import { relative, sep } from 'node:path';
import { watch, type ChokidarOptions, type FSWatcher } from 'chokidar';
import { IGNORE_FILE } from './ignore/never-sent-rules';
import { isIgnoredName } from './sync-names';

/**
 * How the sync root is watched: chokidar on the root and the design folders in it (depth 1: a design holds files
 * only), never following symbolic links, no polling, the names a scan never looks at skipped (but the ignore files). `awaitWriteFinish` is off:
 * the scan's own settle check decides when a file stopped changing (chokidar's is known to be unreliable,
 * paulmillr/chokidar#675, #954). The watcher only says where to look; scans find what changed.
 */
export function syncFolderWatchOptions(rootPath: string): ChokidarOptions {
  return {
    ignoreInitial: true,
    depth: 1,
    followSymlinks: false,
    usePolling: false,
    awaitWriteFinish: false,
    persistent: true,
    ignored: (path: string) => {
      const rel = relative(rootPath, path);
      if (rel === '') return false;
      // The ignore files are read by the scan: a change to one is a reason to look again.
      return rel.split(sep).some((part) => part !== IGNORE_FILE && isIgnoredName(part));
    },
  };
}

export function watchSyncFolder(rootPath: string): FSWatcher {
  return watch(rootPath, syncFolderWatchOptions(rootPath));
}

/**
 * What a person is told when watching the sync folder fails, as facts (worded by the front ends): a system limit
 * reached (with its fix), or another cause.
 */
export function watcherFailureWords(error: NodeJS.ErrnoException, rescanIntervalMs: number): EngineWords {
  const limit = error.code === 'ENOSPC' || error.code === 'EMFILE' || error.code === 'ENFILE';
  return limit
    ? { id: 'sync.detail.watcherLimit', values: { code: String(error.code), minutes: Math.round(rescanIntervalMs / 60_000) || 1 } }
    : { id: 'sync.detail.watcherFailed', values: { problem: error.message } };
}

export interface FolderWatchEvents {
  /** Something changed in this top-level entry of the sync folder (null: at the top itself, or outside it). */
  changed(top: string | null): void;
  /** A folder was removed: maybe the sync folder itself (or the disk it is on). */
  folderRemoved(): void;
  failed(error: NodeJS.ErrnoException): void;
}

/** Watches the sync folder and resolves once chokidar is ready (it reports only what happens after that). */
export async function watchSyncFolderReady(rootPath: string, events: FolderWatchEvents): Promise<FSWatcher> {
  const watcher = watchSyncFolder(rootPath);
  watcher.on('all', (event, path) => {
    if (event === 'unlinkDir') events.folderRemoved();
    const rel = relative(rootPath, path);
    const top = rel.split(sep)[0];
    events.changed(!top || rel.startsWith('..') ? null : top);
  });
  watcher.on('error', (error) => events.failed(error as NodeJS.ErrnoException));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return watcher;
}
