import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { engineLog } from '../log/engine-log';
import type { ExecContext, ExecPart } from './desktop-entry';
import type { SlicerFileType } from './known-slicers';
import { runReg } from './windows-registry';

/** How a found slicer is started with a file. */
export type SlicerLaunch =
  /** Linux: a desktop entry's Exec, the file put where its field code is. */
  | { kind: 'desktop-entry'; args: ExecPart[][]; context: ExecContext }
  /** macOS: `open -a <bundle> <file>`. */
  | { kind: 'app-bundle'; bundle: string }
  /** Windows: the program, with the file as its one argument. */
  | { kind: 'program'; path: string };

/** A slicer (or another app for model files) found installed on this computer. */
export interface Slicer {
  /** Stable while it stays installed where it is: `desktop:<desktop file id>`, `app:<bundle>`, `exe:<program>`. */
  id: string;
  /** Its name, told apart from another install of the same app ("PrusaSlicer (Flatpak)"). */
  name: string;
  /** The key of a slicer design-sync knows ('prusaslicer'), or null for another app that says it opens model files. */
  known: string | null;
  /** The file types it opens. */
  types: SlicerFileType[];
  /** Where it was found (its desktop file, bundle or program). */
  where: string;
  launch: SlicerLaunch;
}

/** The choice that hands the file to the system's app for its type (the host opens it). */
export const SYSTEM_DEFAULT_ID = 'system';
export const SYSTEM_DEFAULT_NAME = 'System default app';

/** What discovery looks at: all of it given, so that tests run on any system with folders of their own. */
export interface SlicerEnvironment {
  platform: NodeJS.Platform;
  /** XDG_DATA_HOME, XDG_DATA_DIRS, PATH (Linux). */
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** Linux: further data folders whose applications/ are read after XDG's (Flatpak's exports, Snap's). */
  extraDataDirs: readonly string[];
  /** Linux: folders of desktop files read last (Snap's /var/lib/snapd/desktop/applications). */
  extraApplicationDirs: readonly string[];
  /** macOS: the folders app bundles are looked for in. */
  applicationFolders: readonly string[];
  /** Windows: runs `reg.exe` with these arguments and answers what it printed (its exit code 1: nothing found). */
  reg: (args: readonly string[]) => Promise<string>;
  /** Windows: whether a program named by the registry is there (Node's fs on a Windows host). */
  exists: (path: string) => boolean;
  /** Where an entry that cannot be used is told, with why. */
  log: (message: string, error?: unknown) => void;
}

/** What was told to the engine log already: discovery runs at each ask, and an entry's problem is told once. */
const told = new Set<string>();

/** This computer's environment for discovery. */
export function systemSlicerEnvironment(overrides: Partial<SlicerEnvironment> = {}): SlicerEnvironment {
  const home = overrides.home ?? homedir();
  return {
    platform: process.platform,
    env: process.env,
    home,
    extraDataDirs: [`${home}/.local/share/flatpak/exports/share`, '/var/lib/flatpak/exports/share'],
    extraApplicationDirs: ['/var/lib/snapd/desktop/applications'],
    applicationFolders: ['/Applications', `${home}/Applications`],
    reg: runReg,
    exists: (path) => existsSync(path),
    log: (message, error) => {
      if (told.has(message)) return;
      told.add(message);
      engineLog.warn('slicers', message, error);
    },
    ...overrides,
  };
}

