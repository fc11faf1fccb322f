import { execFile } from 'node:child_process';

/** The keys where Windows lists installed programs and where installers register their program's path. */
export const UNINSTALL_KEYS = [
  'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall',
  'HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall',
  'HKCU\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall',
] as const;
export const APP_PATHS_KEYS = [
  'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths',
  'HKCU\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths',
] as const;

/** One registry key as `reg query /s` prints it: its path and its values by name ('(Default)' for the default). */
export interface RegistryKey {
  path: string;
  values: Map<string, string>;
}

/**
 * `reg query <key> /s` output taken apart: a line starting with HKEY_ opens a key, an indented
 * `name    REG_TYPE    data` line is one of its values (four spaces between, as reg.exe prints them).
 */
export function parseRegQuery(output: string): RegistryKey[] {
  const keys: RegistryKey[] = [];
  let current: RegistryKey | null = null;
  for (const line of output.split(/\r?\n/)) {
    if (/^HKEY_/.test(line)) {
      current = { path: line.trim(), values: new Map() };
      keys.push(current);
      continue;
    }
    const value = /^ {4}(.*?) {4}(REG_[A-Z_]+)(?: {4}(.*))?$/.exec(line);
    if (value && current) current.values.set(value[1]!, value[3] ?? '');
  }
  return keys;
}

/** Runs reg.exe (Windows only); exit code 1 means the key is not there, which is no error here. */
export function runReg(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('reg.exe', [...args], { windowsHide: true, maxBuffer: 32 * 1024 * 1024 }, (error, stdout) => {
      if (error && (error as { code?: unknown }).code === 1) resolve('');
      else if (error) reject(error);
      else resolve(stdout);
    });
  });
}
