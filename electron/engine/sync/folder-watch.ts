import type { FSWatcher } from 'chokidar';
import type { RootCheck } from '../sync-state/sync-root';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import { watcherFailureWords, watchSyncFolderReady } from './folder-watcher';

export interface FolderWatchOptions {
  /** The sync folder, checked: it is watched only while it is there as it was. */
  verify(): RootCheck;
  /** Whether the engine is still started (a watcher made after a stop is closed at once). */
  active(): boolean;
  /** Something changed in this top-level entry of the sync folder (null: at the top itself). */
  changed(top: string | null): void;
  /** A folder was removed: maybe the sync folder itself (or its disk). */
  folderRemoved(): void;
  /** Watching failed (told once per problem, in English and as facts: a system limit with its fix, or another cause). */
  problem(problem: { text: string; words: EngineWords }): void;
  /** Said in the problem's words: how often the full rescan finds what the watcher misses. */
  rescanIntervalMs: number;
}

/**
 * The sync folder's watcher (chokidar, folder-watcher.ts): made again each time it starts (chokidar's watcher of a
 * folder that vanished is dead, and does not see it come back), never while the folder is not there; its failure told
 * once. It only says where something changed.
 */
export class FolderWatch {
  private watcher: FSWatcher | null = null;
  private starting: Promise<void> | null = null;
  private problem: string | null = null;

  constructor(private readonly options: FolderWatchOptions) {}

  /** The watcher's failure, in words, or null. */
  get warning(): string | null {
    return this.problem;
  }

  /** Watches the sync folder with a new watcher, closing the one before; resolves once it is ready (or not made). */
  start(): Promise<void> {
    const starting = (this.starting ?? Promise.resolve()).catch(() => {}).then(async () => {
      const old = this.watcher;
      this.watcher = null;
      await old?.close();
      const check = this.options.verify();
      if (!this.options.active() || !check.ok) return;
      const watcher = await watchSyncFolderReady(check.root.path, {
        changed: (top) => this.options.changed(top),
        folderRemoved: () => this.options.folderRemoved(),
        failed: (error) => this.failed(error),
      });
      if (!this.options.active()) {
        await watcher.close();
        return;
      }
      this.watcher = watcher;
    });
    this.starting = starting;
    return starting.finally(() => {
      if (this.starting === starting) this.starting = null;
    });
  }

  /** Waits for a watcher being made, then closes the watcher. */
  async close(): Promise<void> {
    await this.starting?.catch(() => {});
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
  }

  private failed(error: NodeJS.ErrnoException): void {
    const words = watcherFailureWords(error, this.options.rescanIntervalMs);
    const message = englishOf(words);
    if (this.problem === message) return;
    this.problem = message;
    this.options.problem({ text: message, words });
  }
}
