import { IMAGE_RENDITIONS, type ImageFile, type ImageRendition, AVATAR_RENDITIONS, type AvatarFile } from '../../shared';
import type { DocumentRow, ImageRow, UserRow } from '../database/rows';

/** Paths (spec §2: url fields hold a string path) under which the service serves stored files. */
export const UPLOADS_PREFIX = '/uploads';

function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

export function imageOriginalPath(image: Pick<ImageRow, 'id' | 'file_name'>): string {
  return `${UPLOADS_PREFIX}/image/file/${image.id}/${encodeURIComponent(image.file_name)}`;
}

/** Renditions are always JPEG, whatever the original's type. */
export function imageRenditionPath(image: Pick<ImageRow, 'id' | 'file_name'>, rendition: ImageRendition): string {
  return `${UPLOADS_PREFIX}/image/file/${image.id}/${rendition}_${encodeURIComponent(baseName(image.file_name))}.jpg`;
}

export function imageFileObject(image: Pick<ImageRow, 'id' | 'file_name'>): ImageFile {
  const file: Record<string, unknown> = { url: imageOriginalPath(image) };
  for (const rendition of IMAGE_RENDITIONS) file[rendition] = { url: imageRenditionPath(image, rendition) };
  return file as ImageFile;
}

export function documentFilePath(document: Pick<DocumentRow, 'id' | 'file_name'>): string {
  return `${UPLOADS_PREFIX}/document/file/${document.id}/${encodeURIComponent(document.file_name)}`;
}

/** Alternative formats of a 3D model document, produced on request. */
export type DocumentAlternativeFormat = 'stl' | 'stl_zip' | 'obj_zip';
export const DOCUMENT_ALTERNATIVE_FORMATS: readonly DocumentAlternativeFormat[] = ['stl', 'stl_zip', 'obj_zip'];

export function documentAlternativePath(document: Pick<DocumentRow, 'id' | 'file_name'>, format: DocumentAlternativeFormat): string {
  const name = encodeURIComponent(baseName(document.file_name));
  return `${UPLOADS_PREFIX}/document/${format}/${document.id}/${name}.${format === 'stl' ? 'stl' : 'zip'}`;
}

export function documentsZipPath(designId: number, designSlug: string): string {
  return `${UPLOADS_PREFIX}/design/documents_zip/${designId}/${encodeURIComponent(designSlug)}.zip`;
}

export function avatarFileObject(user: Pick<UserRow, 'id' | 'avatar_image_path'>): AvatarFile {
  const has = user.avatar_image_path !== null;
  const file: Record<string, unknown> = { url: has ? `${UPLOADS_PREFIX}/user/avatar/${user.id}/avatar.jpg` : null };
  for (const rendition of AVATAR_RENDITIONS) {
    file[rendition] = { url: has ? `${UPLOADS_PREFIX}/user/avatar/${user.id}/${rendition}_avatar.jpg` : null };
  }
  return file as AvatarFile;
}
