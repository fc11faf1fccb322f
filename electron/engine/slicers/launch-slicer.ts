import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { expandExec } from './desktop-entry';
import type { Slicer } from './slicer';

/** A program started for the person: its command, its arguments (never through a shell), and whether to wait for its exit. */
export interface LaunchCommand {
  command: string;
  args: string[];
  /** `open` and `xdg-open` hand the file on and exit: their exit code says whether that worked. */
  waitForExit: boolean;
  cwd?: string;
}

/** Starts a program; resolves once it started (or, with waitForExit, once it exited with 0). */
export type Spawner = (command: LaunchCommand) => Promise<void>;

export class SlicerLaunchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SlicerLaunchError';
  }
}

/** How long a handing-on program (`open`, `xdg-open`) may take to say whether it worked. */
const EXIT_TIMEOUT_MS = 15_000;

/** Starts the program detached from design-sync (it outlives it), its output ignored. */
export const detachedSpawner: Spawner = (command) => new Promise((resolve, reject) => {
  const child = spawn(command.command, command.args, { detached: true, stdio: 'ignore', windowsHide: false, ...(command.cwd ? { cwd: command.cwd } : {}) });
  child.once('error', (error) => reject(new SlicerLaunchError(`${command.command} could not be started: ${error.message}`, { cause: error })));
  if (!command.waitForExit) {
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    return;
  }
  const timer = setTimeout(() => {
    child.unref();
    resolve();
  }, EXIT_TIMEOUT_MS);
  child.once('exit', (code, signal) => {
    clearTimeout(timer);
    if (code === 0) resolve();
    else reject(new SlicerLaunchError(`${command.command} ended with ${signal ?? `exit code ${code}`}`));
  });
});

/** The command that opens `file` with a found slicer. */
export function launchCommand(slicer: Slicer, file: string): LaunchCommand {
  const cwd = dirname(file);
  if (slicer.launch.kind === 'desktop-entry') {
    const [command, ...args] = expandExec(slicer.launch.args, file, slicer.launch.context);
    return { command: command!, args, waitForExit: false, cwd };
  }
  if (slicer.launch.kind === 'app-bundle') return { command: 'open', args: ['-a', slicer.launch.bundle, file], waitForExit: true, cwd };
  return { command: slicer.launch.path, args: [file], waitForExit: false, cwd };
}

/** The command that opens `file` with the system's app for its type (for a front end without Electron's shell.openPath). */
export function systemOpenCommand(platform: NodeJS.Platform, file: string): LaunchCommand {
  if (platform === 'darwin') return { command: 'open', args: [file], waitForExit: true };
  // Explorer opens a file with its app, without cmd.exe's parsing of the name (which `start` would need).
  if (platform === 'win32') return { command: 'explorer.exe', args: [file], waitForExit: false };
  return { command: 'xdg-open', args: [file], waitForExit: true };
}

export async function openWithSlicer(slicer: Slicer, file: string, spawner: Spawner = detachedSpawner): Promise<void> {
  await spawner(launchCommand(slicer, file));
}
