import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { uploadRefusal } from '../../shared';
import { unprocessable } from '../http/errors';
import { newTempPath, removeQuietly } from '../media/file-store';
import { describeContent, openUprightImage, sniffImageFormat, UndecodableImageError } from '../media/image-decoding';
import type { ReceivedFile } from '../media/multipart-upload';
import { IMAGE_RENDITION_SIZES, writeRenditions } from '../media/renditions';
import type { ServiceContext } from '../server/service-context';

/** Inside an image's storage directory: the original, byte for byte, and one JPEG per rendition. */
export const ORIGINAL_FILE = 'original';

export function imageStorageKey(imageId: number): string {
  return `images/${imageId}`;
}

const refuse = (message: string) => unprocessable({ file: [message] });

/**
 * Checks an uploaded image (accepted extension, content that really is JPEG/PNG/TIFF/BMP and decodes)
 * and builds its storage directory in tmp/: the original plus every rendition. Returns that directory,
 * ready for installStorage. Refusals are 422 { errors: { file: [...] } }; the temporary file is always consumed.
 */
export async function prepareImageDirectory(ctx: ServiceContext, file: ReceivedFile): Promise<string> {
  const byName = uploadRefusal('image', file.fileName);
  if (byName) {
    removeQuietly(file.tmpPath);
    throw refuse(byName);
  }
  const format = sniffImageFormat(file.head);
  if (!format) {
    removeQuietly(file.tmpPath);
    throw refuse(`${file.fileName}: the content is ${describeContent(file.head)}, not a JPEG, PNG, TIFF or BMP image`);
  }
  const staging = newTempPath(ctx, 'image');
  try {
    mkdirSync(staging);
    const original = join(staging, ORIGINAL_FILE);
    renameSync(file.tmpPath, original);
    const source = await openUprightImage(original, format);
    await writeRenditions(source, staging, IMAGE_RENDITION_SIZES);
    return staging;
  } catch (error) {
    removeQuietly(staging);
    removeQuietly(file.tmpPath);
    if (error instanceof UndecodableImageError) throw refuse(`${file.fileName}: cannot be read as an image: ${error.message}`);
    // sharp's decoding failures carry no errno code; file-system failures (ENOSPC…) do and stay 500s.
    if (error instanceof Error && !(error as NodeJS.ErrnoException).code) {
      throw refuse(`${file.fileName}: cannot be read as an image: ${error.message.trim()}`);
    }
    throw error;
  }
}
