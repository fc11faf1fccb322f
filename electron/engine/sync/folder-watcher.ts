import { relative, sep } from 'node:path';
import { watch, type ChokidarOptions, type FSWatcher } from 'chokidar';
import { isIgnoredName } from './sync-names';

/**
 * How the sync root is watched: chokidar on the root and the design folders in it (depth 1: a design holds files
 * only), never following symbolic links, no polling, the same ignored names as a scan. `awaitWriteFinish` is off:
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
      return rel.split(sep).some((part) => isIgnoredName(part));
    },
  };
}

export function watchSyncFolder(rootPath: string): FSWatcher {
  return watch(rootPath, syncFolderWatchOptions(rootPath));
}
