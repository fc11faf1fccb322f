import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { until } from '../../../harness/until';
import { systemSlicerEnvironment, type SlicerEnvironment } from '../../../electron/engine/slicers/slicer';

export const SLICER_FIXTURES = join(import.meta.dirname, '../../fixtures/slicers');

/** A program that writes its arguments, one a line, to `record` (a real program a desktop entry can start). */
export function recordingProgram(path: string, record: string): string {
  writeFileSync(path, `#!/bin/sh\nfor argument in "$@"; do printf '%s\\n' "$argument"; done > "${record}.tmp"\nmv "${record}.tmp" "${record}"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** The arguments a recordingProgram was started with, once it has written them (polled, 15 s at most). */
export function recordedArguments(record: string): Promise<string[]> {
  return until(`${basename(record)} written by the program it records`, () => {
    try {
      return readFileSync(record, 'utf8').split('\n').filter(Boolean);
    } catch {
      return null; // not written yet
    }
  }, 15_000);
}

/** A desktop entry fixture copied into an applications folder, @BIN@ made the test's folder of programs. */
export function installEntry(applications: string, fixture: string, bin: string, as = fixture): string {
  mkdirSync(applications, { recursive: true });
  const target = join(applications, as);
  writeFileSync(target, readFileSync(join(SLICER_FIXTURES, 'linux', fixture), 'utf8').replaceAll('@BIN@', bin));
  return target;
}

export function writeEntry(applications: string, name: string, text: string): string {
  mkdirSync(applications, { recursive: true });
  writeFileSync(join(applications, name), text);
  return join(applications, name);
}

export function copyFixture(fixture: string, to: string): void {
  copyFileSync(join(SLICER_FIXTURES, fixture), to);
}

/** A Linux environment in `root`: XDG_DATA_HOME, one XDG_DATA_DIRS folder, a Flatpak exports folder, PATH = bin. */
export function linuxEnvironment(root: string, logs: string[] = []): SlicerEnvironment & { dataHome: string; dataDir: string; flatpak: string; bin: string } {
  const dataHome = join(root, 'home/.local/share');
  const dataDir = join(root, 'usr/share');
  const flatpak = join(root, 'var/lib/flatpak/exports/share');
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  const environment = systemSlicerEnvironment({
    platform: 'linux',
    home: join(root, 'home'),
    env: { XDG_DATA_HOME: dataHome, XDG_DATA_DIRS: dataDir, PATH: bin },
    extraDataDirs: [flatpak],
    extraApplicationDirs: [],
    log: (message) => logs.push(message),
  });
  return { ...environment, dataHome, dataDir, flatpak, bin };
}

export function stubProgram(bin: string, name: string): string {
  const path = join(bin, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}
