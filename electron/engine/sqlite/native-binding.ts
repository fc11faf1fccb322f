import { join } from 'node:path';

/**
 * Which build of better-sqlite3's native module a process must load. One checkout serves both runtimes: Node (npm
 * test, the CLI, the window host) loads the build npm made in node_modules; Electron (npm start, the packaged app)
 * has another ABI and loads the build `npm run rebuild:electron` made beside it (docs/native-modules.md).
 */
export interface SqliteRuntime {
  /** `process.versions`: `electron` is set only under Electron; `modules` is the ABI (NODE_MODULE_VERSION). */
  readonly versions: { readonly electron?: string | undefined; readonly modules: string };
  readonly platform: string;
  readonly arch: string;
  /** Electron's `process.resourcesPath`: a packaged app has its `app.asar` there. */
  readonly resourcesPath?: string | undefined;
  /** The checkout the unpackaged app runs from (`npm start` runs Electron there). */
  readonly appRoot: string;
}

export const REBUILD_COMMAND = 'npm run rebuild:electron';

/** The build's folder name: one per Electron ABI, platform and architecture, so an Electron upgrade never loads a stale build. */
export function electronBuildTag(runtime: Pick<SqliteRuntime, 'versions' | 'platform' | 'arch'>): string {
  return `electron-${runtime.versions.modules}-${runtime.platform}-${runtime.arch}`;
}

/** Where the Electron build lives below an app root: the same relative path in the checkout and in the packaged app. */
export function electronBuildPath(root: string, tag: string): string {
  return join(root, 'build', 'native', tag, 'better_sqlite3.node');
}

export class ElectronSqliteBuildMissingError extends Error {
  constructor(readonly expectedPath: string, readonly electronVersion: string, readonly abi: string, readonly packaged: boolean) {
    super(packaged
      ? `This copy of design-sync is incomplete: its SQLite module for Electron ${electronVersion} (ABI ${abi}) is missing at ${expectedPath}. Reinstall design-sync.`
      : `design-sync is running under Electron ${electronVersion} (ABI ${abi}), but better-sqlite3 has no build for it at ${expectedPath}. ` +
        `Run \`${REBUILD_COMMAND}\` once (it builds better-sqlite3 for this Electron beside the Node build, which npm test keeps using), then start again.`);
    this.name = 'ElectronSqliteBuildMissingError';
  }
}

/**
 * The `nativeBinding` to give better-sqlite3: undefined under Node (its own build, found by `bindings`), the Electron
 * build under Electron: in a packaged app the one unpacked beside `app.asar`, otherwise the checkout's. Throws
 * ElectronSqliteBuildMissingError, naming the command that makes it, when that build is not there.
 */
export function chooseNativeBinding(runtime: SqliteRuntime, exists: (path: string) => boolean): string | undefined {
  const electronVersion = runtime.versions.electron;
  if (!electronVersion) return undefined;
  const tag = electronBuildTag(runtime);
  const packagedApp = runtime.resourcesPath ? join(runtime.resourcesPath, 'app.asar') : undefined;
  const packaged = packagedApp !== undefined && exists(packagedApp);
  const candidate = electronBuildPath(packaged ? `${packagedApp}.unpacked` : runtime.appRoot, tag);
  if (!exists(candidate)) throw new ElectronSqliteBuildMissingError(candidate, electronVersion, runtime.versions.modules, packaged);
  return candidate;
}
