import { LIMITS } from './limits';

export type UploadKind = 'image' | 'document';

export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function isImageFileName(fileName: string): boolean {
  return (LIMITS.imageExtensions as readonly string[]).includes(fileExtension(fileName));
}

/**
 * Why a file may not be uploaded as the given kind, or null when it may.
 * The message names the file and the rule, so it can be shown to a person as it is.
 */
export function uploadRefusal(kind: UploadKind, fileName: string): string | null {
  const extension = fileExtension(fileName);
  if (kind === 'image') {
    if (isImageFileName(fileName)) return null;
    const shown = extension ? `.${extension}` : 'a file without an extension';
    return `${fileName}: ${shown} is not an accepted image type (accepted: ${LIMITS.imageExtensions.join(', ')})`;
  }
  if ((LIMITS.refusedDocumentExtensions as readonly string[]).includes(extension)) {
    return `${fileName}: executable files (.${extension}) cannot be uploaded as documents`;
  }
  return null;
}

/** Windows PE executables start with "MZ" and point at a "PE\0\0" header: refused whatever their name. */
export function looksLikeWindowsExecutable(head: Uint8Array): boolean {
  if (head.length < 64 || head[0] !== 0x4d || head[1] !== 0x5a) return false;
  const peOffset = head[60]! | (head[61]! << 8) | (head[62]! << 16) | (head[63]! << 24);
  if (peOffset < 0 || peOffset + 4 > head.length) return false;
  return head[peOffset] === 0x50 && head[peOffset + 1] === 0x45 && head[peOffset + 2] === 0 && head[peOffset + 3] === 0;
}
