import { readFile, stat } from 'node:fs/promises';
import { decode as decodeBmp } from 'bmp-ts';
import sharp from 'sharp';

export type ImageFormat = 'jpeg' | 'png' | 'tiff' | 'bmp';

export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
};

/** BMP is decoded in memory (sharp cannot read it); larger ones are refused rather than risk the service's memory. */
export const MAX_BMP_BYTES = 256 * 1024 * 1024;

const startsWith = (head: Uint8Array, bytes: number[]) => bytes.every((byte, i) => head[i] === byte);

/** The accepted image format the content is, judged by its magic bytes; null for anything else. */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(head, [0x42, 0x4d]) && head.length >= 26) return 'bmp';
  return null;
}

/** A name for what the content is, for messages: "a GIF image", "a PDF document"… */
export function describeContent(head: Uint8Array): string {
  if (head.length === 0) return 'an empty file';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'a GIF image';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head.subarray(8), [0x57, 0x45, 0x42, 0x50])) return 'a WebP image';
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46])) return 'a PDF document';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive';
  if (startsWith(head, [0x4d, 0x5a])) return 'a Windows executable';
  return 'not an image';
}

export class UndecodableImageError extends Error {}

/** BMP pixels from bmp-ts come as A,B,G,R per pixel; sharp wants R,G,B. The alpha byte is not meaningful for BMP and is dropped. */
export function abgrToRgb(abgr: Uint8Array, width: number, height: number): Buffer {
  const rgb = Buffer.alloc(width * height * 3);
  for (let pixel = 0, from = 0, to = 0; pixel < width * height; pixel++, from += 4, to += 3) {
    rgb[to] = abgr[from + 3]!;
    rgb[to + 1] = abgr[from + 2]!;
    rgb[to + 2] = abgr[from + 1]!;
  }
  return rgb;
}

async function openBmp(path: string): Promise<sharp.Sharp> {
  const { size } = await stat(path);
  if (size > MAX_BMP_BYTES) throw new UndecodableImageError(`BMP images over ${MAX_BMP_BYTES / 1024 / 1024} MB are not accepted`);
  let decoded: { width: number; height: number; data: Uint8Array };
  try {
    decoded = decodeBmp(await readFile(path));
  } catch (error) {
    throw new UndecodableImageError(`the BMP data is unreadable (${(error as Error).message})`);
  }
  const { width, height, data } = decoded;
  if (!(width > 0 && height > 0) || data.length < width * height * 4) throw new UndecodableImageError('the BMP data is unreadable');
  return sharp(abgrToRgb(data, width, height), { raw: { width, height, channels: 3 } });
}

/**
 * The image at path as a sharp pipeline, turned upright (EXIF orientation) and flattened onto white,
 * ready for resizing into JPEG renditions. Reads the header, so a corrupt file fails here.
 */
export async function openUprightImage(path: string, format: ImageFormat): Promise<sharp.Sharp> {
  let image: sharp.Sharp;
  if (format === 'bmp') {
    image = await openBmp(path);
  } else {
    image = sharp(path, { failOn: 'error' });
    try {
      const metadata = await image.metadata();
      if (metadata.format !== format) {
        throw new UndecodableImageError(`the content looks like ${format.toUpperCase()} but reads as ${metadata.format ?? 'something else'}`);
      }
    } catch (error) {
      if (error instanceof UndecodableImageError) throw error;
      throw new UndecodableImageError(`the ${format.toUpperCase()} data is unreadable (${(error as Error).message})`);
    }
  }
  return image.rotate().flatten({ background: '#ffffff' });
}
