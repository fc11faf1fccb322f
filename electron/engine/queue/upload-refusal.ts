import { fileExtension, isImageFileName, LIMITS, uploadRefusal, type UploadKind } from '../../../shared';
import { said, untranslated, type Said } from './said';

/**
 * Why a file may not be uploaded as the given kind (the shared rule of `uploadRefusal`), as a sentence of ours, or
 * null when it may. A rule the shared module has and this one does not word yet keeps its English.
 */
export function uploadRefusalSaid(kind: UploadKind, fileName: string): Said | null {
  const english = uploadRefusal(kind, fileName);
  if (!english) return null;
  const extension = fileExtension(fileName);
  if (kind === 'image' && !isImageFileName(fileName)) {
    return said('queue.reason.notAnImageType', { file: fileName, extension: extension || 'none', accepted: LIMITS.imageExtensions.join(', ') });
  }
  if (kind === 'document' && (LIMITS.refusedDocumentExtensions as readonly string[]).includes(extension)) {
    return said('queue.reason.executableDocument', { file: fileName, extension });
  }
  return untranslated(english);
}

/** A file whose bytes are a Windows program: refused as a document whatever its name. */
export const windowsProgramRefusal = (fileName: string): Said => said('queue.reason.windowsProgram', { file: fileName });
