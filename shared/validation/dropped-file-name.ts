import { isImageFileName, uploadRefusal } from './file-types';

/** A file name's longest form on the common file systems (ext4, APFS, NTFS count about this much). */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * Why a file dropped on a design cannot be added under this name, or null when it can. The same words reach the
 * window from the host and from the engine: each names the file and the rule.
 */
export function droppedFileNameRefusal(name: string): string | null {
  if (name.trim() === '') return 'The file has no name.';
  if (/[/\\]/.test(name)) return `${name}: a file name cannot contain / or \\ (drop the files themselves, not a path).`;
  if (name === '.' || name === '..' || name.includes('..')) return `${name}: a file name cannot contain "..".`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return `${name}: a file name cannot contain control characters.`;
  if (new TextEncoder().encode(name).length > MAX_FILE_NAME_BYTES) return `${name.slice(0, 40)}…: the name is longer than ${MAX_FILE_NAME_BYTES} bytes.`;
  if (name.startsWith('.')) return `${name}: hidden files (names starting with a dot) are not synced.`;
  return uploadRefusal(isImageFileName(name) ? 'image' : 'document', name);
}
