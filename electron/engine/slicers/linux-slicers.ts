import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { booleanValue, DesktopEntryError, expandExec, listValue, parseDesktopFile, parseExec, unescapeValue, type DesktopEntryKeys, type ExecPart } from './desktop-entry';
import { knownSlicerByDesktopName, typesOfMimeTypes, type SlicerFileType } from './known-slicers';
import type { Slicer, SlicerEnvironment } from './slicer';

/** A desktop file found, with its desktop file id (its path under applications/, '/' made '-'). */
interface DesktopFile {
  id: string;
  path: string;
  /** Found among Flatpak's or Snap's exports. */
  packaging: 'Flatpak' | 'Snap' | null;
}

/** The folders of desktop files in the specification's order of precedence: XDG_DATA_HOME, XDG_DATA_DIRS, then exports. */
export function applicationDirs(environment: SlicerEnvironment): { dir: string; packaging: DesktopFile['packaging'] }[] {
  const { env, home } = environment;
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(home, '.local/share');
  const dataDirs = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter((dir) => dir.startsWith('/'));
  const packagingOf = (dir: string): DesktopFile['packaging'] => (dir.includes('/flatpak/exports/') ? 'Flatpak' : dir.includes('/snapd/') ? 'Snap' : null);
  const dirs: string[] = [];
  for (const data of [dataHome, ...dataDirs, ...environment.extraDataDirs]) dirs.push(join(data, 'applications'));
  dirs.push(...environment.extraApplicationDirs);
  const seen = new Set<string>();
  return dirs.filter((dir) => !seen.has(dir) && seen.add(dir)).map((dir) => ({ dir, packaging: packagingOf(dir) }));
}

function desktopFilesIn(dir: string, packaging: DesktopFile['packaging'], environment: SlicerEnvironment): DesktopFile[] {
  const files: DesktopFile[] = [];
  const walk = (folder: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') environment.log(`the folder ${folder} cannot be read`, error);
      return;
    }
    for (const name of names.sort()) {
      const path = join(folder, name);
      if (name.endsWith('.desktop')) files.push({ id: relative(dir, path).split(sep).join('-'), path, packaging });
      else if (depth < 3 && !name.includes('.')) {
        try {
          if (statSync(path).isDirectory()) walk(path, depth + 1);
        } catch (error) {
          environment.log(`${path} cannot be read`, error);
        }
      }
    }
  };
  walk(dir, 0);
  return files;
}

/** Whether a program can be run: a path that is an executable file, or a name found so on PATH. */
export function findProgram(program: string, environment: SlicerEnvironment): string | null {
  const runnable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      // Not there or not executable: the next place is looked at (nothing to report).
      return false;
    }
  };
  if (program.includes('/')) return program.startsWith('/') && runnable(program) ? program : null;
  for (const dir of (environment.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':')) {
    if (dir.startsWith('/') && runnable(join(dir, program))) return join(dir, program);
  }
  return null;
}

/**
 * One desktop file as a slicer, or null when it is no app for model files; refused entries (broken, not installed,
 * unable to take a file) are told to the log with why, and hide nothing else.
 */
function slicerOfEntry(file: DesktopFile, environment: SlicerEnvironment): Slicer[] | null | 'hidden' {
  let keys: DesktopEntryKeys;
  let actions: ReadonlyMap<string, DesktopEntryKeys>;
  try {
    ({ entry: keys, actions } = parseDesktopFile(readFileSync(file.path, 'utf8')));
  } catch (error) {
    environment.log(`the desktop entry ${file.path} is not used: ${error instanceof DesktopEntryError ? error.message : 'it cannot be read'}`, error instanceof DesktopEntryError ? undefined : error);
    return null;
  }
  try {
    // Hidden=true: deleted, and it hides the entries of the same id in folders of lower precedence.
    if (booleanValue(keys, 'Hidden')) return 'hidden';
    if (keys.get('Type') !== 'Application') return null;
    const name = unescapeValue(keys.get('Name') ?? '').trim();
    const known = knownSlicerByDesktopName(name);
    const mimeTypes = typesOfMimeTypes(listValue(keys.get('MimeType') ?? ''));
    if (!known && mimeTypes.length === 0) return null;
    if (booleanValue(keys, 'NoDisplay')) return null;
    if (name === '') throw new DesktopEntryError('it has no Name');
    if (booleanValue(keys, 'Terminal')) throw new DesktopEntryError('it runs in a terminal');
    const exec = keys.get('Exec');
    if (exec === undefined) throw new DesktopEntryError('it has no Exec (only D-Bus activation)');
    const args = parseExec(unescapeValue(exec));
    const tryExec = keys.get('TryExec');
    if (tryExec !== undefined && !findProgram(unescapeValue(tryExec), environment)) return notInstalled(file, `its TryExec ${unescapeValue(tryExec)}`, environment);
    const resolved = programOf(args, environment);
    if (!resolved) return notInstalled(file, `its program ${(args[0]![0] as { text: string }).text}`, environment);
    const types = new Set<SlicerFileType>(mimeTypes);
    // A known slicer's entry often lists fewer types than it reads; a G-code viewer's lists only G-code.
    if (known && (mimeTypes.length === 0 || mimeTypes.some((type) => type !== 'gcode'))) for (const type of known.types) types.add(type);
    const context = { icon: keys.get('Icon') ? unescapeValue(keys.get('Icon')!) : undefined, name, location: file.path };
    // Checked once here, so that an entry that cannot be expanded is never offered.
    expandExec(args, '/file.stl', context);
    const suffix = file.packaging ? ` (${file.packaging})` : '';
    const slicer: Slicer = {
      id: `desktop:${file.id}`,
      name: `${name}${suffix}`,
      known: known?.key ?? null,
      types: [...types],
      where: file.path,
      launch: { kind: 'desktop-entry', args: [[{ kind: 'text', text: resolved }], ...args.slice(1)], context },
    };
    return [slicer, ...gcodeViewers(file, keys, actions, { name, suffix, context }, environment)];
  } catch (error) {
    if (!(error instanceof DesktopEntryError)) throw error;
    environment.log(`the desktop entry ${file.path} is not used: ${error.message}`);
    return null;
  }
}

/** The program of an Exec line, found (a path, or on PATH), or null. */
function programOf(args: ExecPart[][], environment: SlicerEnvironment): string | null {
  return findProgram((args[0]![0] as { text: string }).text, environment);
}

/**
 * The entry's actions that view G-code (PrusaSlicer's Flatpak entry: `Actions=GCodeViewer;` and its
 * `[Desktop Action GCodeViewer]` with an Exec of its own), offered for G-code; one that cannot be used is logged.
 */
function gcodeViewers(file: DesktopFile, keys: DesktopEntryKeys, actions: ReadonlyMap<string, DesktopEntryKeys>, entry: { name: string; suffix: string; context: { icon?: string | undefined; name: string; location: string } }, environment: SlicerEnvironment): Slicer[] {
  const viewers: Slicer[] = [];
  for (const id of listValue(keys.get('Actions') ?? '')) {
    const action = actions.get(id);
    const actionName = unescapeValue(action?.get('Name') ?? '').trim();
    if (!action || !/g-?code/i.test(`${id} ${actionName}`)) continue;
    try {
      const exec = action.get('Exec');
      if (exec === undefined) throw new DesktopEntryError('it has no Exec');
      const args = parseExec(unescapeValue(exec));
      const resolved = programOf(args, environment);
      if (!resolved) {
        notInstalled(file, `the program of its action ${id}`, environment);
        continue;
      }
      viewers.push({
        id: `desktop:${file.id}#${id}`,
        name: `${entry.name} ${actionName || id}${entry.suffix}`,
        known: null,
        types: ['gcode'],
        where: file.path,
        launch: { kind: 'desktop-entry', args: [[{ kind: 'text', text: resolved }], ...args.slice(1)], context: entry.context },
      });
    } catch (error) {
      if (!(error instanceof DesktopEntryError)) throw error;
      environment.log(`the action ${id} of the desktop entry ${file.path} is not used: ${error.message}`);
    }
  }
  return viewers;
}

function notInstalled(file: DesktopFile, what: string, environment: SlicerEnvironment): null {
  environment.log(`the desktop entry ${file.path} is not used: ${what} is not installed`);
  return null;
}

/** The apps for model files among the desktop entries (Linux and other XDG desktops), the first of each id only. */
export function linuxSlicers(environment: SlicerEnvironment): Slicer[] {
  const seen = new Set<string>();
  const slicers: Slicer[] = [];
  for (const { dir, packaging } of applicationDirs(environment)) {
    for (const file of desktopFilesIn(dir, packaging, environment)) {
      if (seen.has(file.id)) continue;
      seen.add(file.id);
      const found = slicerOfEntry(file, environment);
      if (found && found !== 'hidden') slicers.push(...found);
    }
  }
  return slicers;
}
