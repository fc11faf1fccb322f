import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { WordedError } from '../../../shared/i18n/worded-error';

const profileSettings = z.looseObject({
  serviceUrl: z.string().optional(),
});
export type ProfileSettings = z.infer<typeof profileSettings>;

/** A settings file that cannot be read: named, with why (the system's or the parser's words), its words as facts. */
export class SettingsFileError extends WordedError {
  constructor(path: string, reason: string) {
    super({ id: 'profile.problem.settingsUnreadable', values: { path, reason } });
    this.name = 'SettingsFileError';
  }
}

/** Reads settings.json; a missing file is empty settings, a broken one is a named error (never silently replaced). */
export function readSettings(path: string): ProfileSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SettingsFileError(path, (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsFileError(path, `not valid JSON (${(error as Error).message})`);
  }
  const result = profileSettings.safeParse(json);
  if (!result.success) throw new SettingsFileError(path, result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return result.data;
}

/** Writes to a temporary file and renames it into place, so a crash never leaves half a file. */
export function writeSettings(path: string, settings: ProfileSettings): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
