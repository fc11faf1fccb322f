import { win32 } from 'node:path';
import { KNOWN_SLICERS, type KnownSlicer } from './known-slicers';
import type { Slicer, SlicerEnvironment } from './slicer';
import { APP_PATHS_KEYS, parseRegQuery, UNINSTALL_KEYS, type RegistryKey } from './windows-registry';

/** A path as the registry holds it: quotes, an icon index (",0") and surrounding blanks taken off. */
function registryPath(value: string | undefined): string | null {
  if (!value) return null;
  const path = value.trim().replace(/,\s*-?\d+$/, '').replace(/^"(.*)"$/, '$1').trim();
  return win32.isAbsolute(path) ? path : null;
}

/** The known slicer's program an uninstall key points at: its DisplayIcon when that is its program, else in InstallLocation. */
function programOf(key: RegistryKey, known: KnownSlicer, environment: SlicerEnvironment): string | null {
  const exes = known.windowsExes.map((exe) => exe.toLowerCase());
  const icon = registryPath(key.values.get('DisplayIcon'));
  if (icon && exes.includes(win32.basename(icon).toLowerCase()) && environment.exists(icon)) return icon;
  const location = registryPath(key.values.get('InstallLocation'));
  if (location) {
    for (const exe of known.windowsExes) {
      const path = win32.join(location, exe);
      if (environment.exists(path)) return path;
    }
  }
  return null;
}

async function query(key: string, environment: SlicerEnvironment): Promise<RegistryKey[]> {
  try {
    return parseRegQuery(await environment.reg(['query', key, '/s']));
  } catch (error) {
    environment.log(`the registry key ${key} cannot be read`, error);
    return [];
  }
}

/**
 * The known slicers Windows lists as installed (the Uninstall keys' DisplayName, for all users, 32-bit programs and
 * this user) or whose installer registered its program (App Paths); each program once. PrusaSlicer's G-code viewer,
 * installed beside it, is offered for G-code.
 */
export async function windowsSlicers(environment: SlicerEnvironment): Promise<Slicer[]> {
  const found = new Map<string, { known: KnownSlicer; path: string }>();
  const add = (known: KnownSlicer, path: string) => {
    if (!found.has(path.toLowerCase())) found.set(path.toLowerCase(), { known, path });
  };
  for (const key of UNINSTALL_KEYS) {
    for (const entry of await query(key, environment)) {
      const displayName = entry.values.get('DisplayName');
      const known = displayName ? KNOWN_SLICERS.find((slicer) => slicer.windowsName.test(displayName.trim())) : undefined;
      if (!known) continue;
      const program = programOf(entry, known, environment);
      if (program) add(known, program);
      else environment.log(`${displayName} is listed as installed (${entry.path}) but its program was not found`);
    }
  }
  for (const key of APP_PATHS_KEYS) {
    for (const entry of await query(key, environment)) {
      const exe = win32.basename(entry.path).toLowerCase();
      const known = KNOWN_SLICERS.find((slicer) => slicer.windowsExes.some((name) => name.toLowerCase() === exe));
      const program = registryPath(entry.values.get('(Default)'));
      if (known && program && environment.exists(program)) add(known, program);
    }
  }
  const slicers: Slicer[] = [];
  for (const { known, path } of found.values()) {
    const name = slicers.some((slicer) => slicer.known === known.key) ? `${known.name} (${win32.dirname(path)})` : known.name;
    slicers.push({ id: `exe:${path}`, name, known: known.key, types: [...known.types], where: path, launch: { kind: 'program', path } });
    const viewer = win32.join(win32.dirname(path), 'prusa-gcodeviewer.exe');
    if (known.key === 'prusaslicer' && environment.exists(viewer)) {
      slicers.push({ id: `exe:${viewer}`, name: 'PrusaSlicer G-code viewer', known: null, types: ['gcode'], where: viewer, launch: { kind: 'program', path: viewer } });
    }
  }
  return slicers;
}
