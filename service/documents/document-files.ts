import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { looksLikeWindowsExecutable, uploadRefusal } from '../../shared';
import { unprocessable } from '../http/errors';
import { newTempPath, removeQuietly } from '../media/file-store';
import type { ReceivedFile } from '../media/multipart-upload';
import type { ServiceContext } from '../server/service-context';

/** Inside a document's storage directory: the file as uploaded, and a binary STL made from an OBJ on first request. */
export const DOCUMENT_FILE = 'file';
export const CONVERTED_STL_FILE = 'converted.stl';

export function documentStorageKey(documentId: number): string {
  return `documents/${documentId}`;
}

/**
 * Refuses executables (.exe by name, or Windows PE content whatever the name) with 422 { errors: { file } },
 * then moves the upload into a fresh storage directory in tmp/, ready for installStorage.
 */
export function prepareDocumentDirectory(ctx: ServiceContext, file: ReceivedFile): string {
  const byName = uploadRefusal('document', file.fileName);
  const refusal = byName
    ?? (looksLikeWindowsExecutable(file.head)
      ? `${file.fileName}: the content is a Windows executable, which cannot be uploaded as a document whatever its name`
      : null);
  if (refusal) {
    removeQuietly(file.tmpPath);
    throw unprocessable({ file: [refusal] });
  }
  const staging = newTempPath(ctx, 'document');
  try {
    mkdirSync(staging);
    renameSync(file.tmpPath, join(staging, DOCUMENT_FILE));
    return staging;
  } catch (error) {
    removeQuietly(staging);
    removeQuietly(file.tmpPath);
    throw error;
  }
}
