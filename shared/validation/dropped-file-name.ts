import type { EngineWords } from '../i18n/engine-words';
import { englishOf } from '../i18n/worded-error';
import { fileExtension, isImageFileName, uploadRefusal } from './file-types';

/** A file name's longest form on the common file systems (ext4, APFS, NTFS count about this much). */
export const MAX_FILE_NAME_BYTES = 255;

/** How much of a name too long to be a file's is shown when it is refused. */
const SHOWN_OF_LONG_NAME = 40;

/**
 * Why a file dropped on a design cannot be added under this name, as facts (a message id and its values: the file's
 * name and the rule) that the window, the hosts and the engine word in the person's language; null when it can.
 */
export function droppedFileNameRefusalWords(name: string): EngineWords | null {
  if (name.trim() === '') return { id: 'engine.refusal.dropName.empty' };
  if (/[/\\]/.test(name)) return { id: 'engine.refusal.dropName.path', values: { file: name } };
  if (name === '.' || name === '..' || name.includes('..')) return { id: 'engine.refusal.dropName.dots', values: { file: name } };
  if (/[\u0000-\u001f\u007f]/.test(name)) return { id: 'engine.refusal.dropName.control', values: { file: name } };
  if (new TextEncoder().encode(name).length > MAX_FILE_NAME_BYTES) {
    return { id: 'engine.refusal.dropName.tooLong', values: { file: name.slice(0, SHOWN_OF_LONG_NAME), limit: MAX_FILE_NAME_BYTES } };
  }
  if (name.startsWith('.')) return { id: 'engine.refusal.dropName.hidden', values: { file: name } };
  // An image is never refused by its name; a document is when it is a program (the shared upload rule).
  if (!isImageFileName(name) && uploadRefusal('document', name) !== null) {
    return { id: 'queue.reason.executableDocument', values: { file: name, extension: fileExtension(name) } };
  }
  return null;
}

/** The same refusal in English (for the log and `--json`), or null when the name can be added. */
export function droppedFileNameRefusal(name: string): string | null {
  const words = droppedFileNameRefusalWords(name);
  return words ? englishOf(words) : null;
}
