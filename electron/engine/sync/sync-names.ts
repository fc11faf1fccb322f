import { fileExtension, isImageFileName, LIMITS } from '../../../shared';
import { MARKER_FILE } from '../sync-state/sync-root';
import { IGNORE_FILE } from './ignore/never-sent-rules';

/** The marker file in the sync root; see sync-root.ts. */
export { MARKER_FILE };
/** Our own temporary downloads: written beside their destination, then renamed into place. */
export const TEMP_PREFIX = '.design-sync-';
export const TEMP_SUFFIX = '.tmp';
/** Where files removed on the service go when the system has no trash. */
export const FALLBACK_TRASH_DIR = '.design-sync-trash';

/**
 * design-sync's own files in the sync folder (its marker, its temporary downloads, its trash, the ignore file): never
 * sent, and never listed as held back (they are not the person's).
 */
export function isOwnName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) || name === FALLBACK_TRASH_DIR || name === MARKER_FILE || name === IGNORE_FILE;
}

const CONFLICT_PATTERN = / \(conflicted copy \d{4}-\d{2}-\d{2} \d{4}(?: \d+)?\)(?:\.[^.]*)?$/;

/**
 * Names never synced: editors' and systems' temporary and metadata files, partial downloads, our own
 * files. Dotfiles are all skipped (.DS_Store, .~lock.x#, .x.swp, .design-sync-*).
 */
export function isIgnoredName(name: string): boolean {
  if (name.startsWith('.')) return true;
  const lower = name.toLowerCase();
  if (lower === 'thumbs.db' || lower === 'desktop.ini' || lower === 'ehthumbs.db' || lower === 'icon\r') return true;
  if (name.startsWith('~$') || name.endsWith('~') || name.endsWith('#')) return true;
  return /\.(part|crdownload|download|tmp|temp|swp|swx|swo|partial|!ut)$/i.test(name);
}

/** A copy made by sync when a file changed on both sides: it stays local until the person merges it. */
export function isConflictCopy(name: string): boolean {
  return CONFLICT_PATTERN.test(name);
}

function splitName(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot) } : { stem: name, ext: '' };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `gear (conflicted copy 2026-11-22 0936).stl`, in local time, as Nextcloud names them; `n` > 1 makes it unique. */
export function conflictCopyName(name: string, at: Date, n = 1): string {
  const { stem, ext } = splitName(name);
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}${pad(at.getMinutes())}`;
  return `${stem} (conflicted copy ${stamp}${n > 1 ? ` ${n}` : ''})${ext}`;
}

/** The key two names are the same file under, on a case-insensitive, normalization-insensitive disk (macOS, Windows). */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const MAX_NAME = 120;

/**
 * A file or folder name that every supported system accepts: no characters Windows refuses, no control
 * characters, no trailing dots or spaces, not a reserved device name, not hidden (we skip dotfiles), NFC.
 * Empty names become `fallback`.
 */
export function safeName(raw: string, fallback: string): string {
  let name = raw.normalize('NFC')
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '-')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (name.length > MAX_NAME) {
    const { stem, ext } = splitName(name);
    name = `${stem.slice(0, MAX_NAME - Math.min(ext.length, 20))}${ext.slice(0, 20)}`.replace(/[.\s]+$/, '');
  }
  if (name === '') name = fallback;
  if (WINDOWS_RESERVED.test(name)) {
    const { stem, ext } = splitName(name);
    name = `${stem}-${ext ? ext.slice(1) : 'file'}`;
    if (WINDOWS_RESERVED.test(name)) name = `${name}-`;
  }
  // A conflict copy's name is kept: one the person confirmed to upload comes back under that same name on the
  // other computers (it is synced there through its base_files row like any file, not skipped as a local copy).
  if (isIgnoredName(name)) name = `${fallback}-${name}`.replace(/[.\s~#]+$/, '');
  return name;
}

/** `name`, or `name (2)`, `name (3)`… (before the extension when `keepExtension`) until no taken key matches. */
export function uniqueName(name: string, taken: (key: string) => boolean, keepExtension: boolean): string {
  if (!taken(nameKey(name))) return name;
  const { stem, ext } = keepExtension ? splitName(name) : { stem: name, ext: '' };
  for (let n = 2; ; n++) {
    const candidate = keepExtension ? `${stem} (${n})${ext}` : `${stem}-${n}`;
    if (!taken(nameKey(candidate))) return candidate;
  }
}

/** The folder name of an own design: from its slug, else its name, safe everywhere. */
export function designFolderName(design: { id: number; slug?: string | null; name?: string | null }): string {
  return safeName(design.slug || design.name || '', `design-${design.id}`);
}

/**
 * The local name of a file of the service: its name, made safe, with the extension of its stored file
 * when the name lacks one (an image renamed "Front view" on the service is still a .png here, and still an image).
 */
export function localNameFor(kind: 'image' | 'document', remote: { id: number; name: string; url: string | null }): string {
  const stored = remote.url ? decodeURIComponent(remote.url.split('?')[0]!.split('/').pop() ?? '') : '';
  const storedExt = fileExtension(stored);
  let name = safeName(remote.name, `${kind}-${remote.id}`);
  const hasExt = fileExtension(name) !== '';
  if (kind === 'image' && !isImageFileName(name)) name = `${name}.${(LIMITS.imageExtensions as readonly string[]).includes(storedExt) ? storedExt : 'jpg'}`;
  else if (kind === 'document' && !hasExt && storedExt) name = `${name}.${storedExt}`;
  return name;
}
