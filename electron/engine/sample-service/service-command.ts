import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** How to run the bundled local service as a child process. */
export interface ServiceCommand {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface ServiceRuntime {
  /** The checkout, or the packaged app's root: where `service/cli.ts` or `dist/service/cli.mjs` is. */
  appRoot: string;
  /** The running program (Node, or Electron's binary in the Electron app). */
  execPath: string;
  versions: { readonly electron?: string | undefined };
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
}

/** The service's bundle (one file, its native modules outside), where a build made one. */
export const SERVICE_BUNDLE = join('dist', 'service', 'cli.mjs');
/** A plain Node the launcher hands to the Electron app it starts, for children that need Node's own ABI. */
export const NODE_FOR_CHILDREN = 'DESIGN_SYNC_NODE';

/**
 * The command that starts the local service with `serviceArgs`: the bundle when there is one, else the sources (from a
 * bundle of them kept until a file changes, electron/launcher/run-source.mjs). Under Electron, a plain Node given by the launcher runs it when there is one (the service's native modules are
 * built for Node); otherwise Electron's binary runs it as Node (ELECTRON_RUN_AS_NODE).
 */
export function serviceCommand(runtime: ServiceRuntime, serviceArgs: string[]): ServiceCommand {
  const bundle = join(runtime.appRoot, SERVICE_BUNDLE);
  const plainNode = runtime.versions.electron ? runtime.env[NODE_FOR_CHILDREN] : runtime.execPath;
  const command = plainNode || runtime.execPath;
  const env: NodeJS.ProcessEnv = { ...runtime.env };
  if (command === runtime.execPath && runtime.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  const entry = runtime.exists(bundle) ? [bundle] : [join('electron', 'launcher', 'run-source.mjs'), join('service', 'cli.ts')];
  return { command, args: [...entry, ...serviceArgs], cwd: runtime.appRoot, env };
}

/** The folder above `from` that holds the app's package.json and its service (sources or bundle). */
export function findAppRoot(from: string, exists: (path: string) => boolean = existsSync): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (exists(join(dir, 'package.json')) && (exists(join(dir, 'service', 'cli.ts')) || exists(join(dir, SERVICE_BUNDLE)))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The running process's own runtime. */
export function currentServiceRuntime(): ServiceRuntime | null {
  const appRoot = findAppRoot(import.meta.dirname);
  return appRoot === null ? null : { appRoot, execPath: process.execPath, versions: process.versions, env: process.env, exists: existsSync };
}
