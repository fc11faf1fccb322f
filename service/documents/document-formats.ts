import { ALTERNATIVE_FORMAT_KEYS, CREATION_FORMAT_KEYS, fileExtension, type UrlRef } from '../../shared';
import type { DocumentRow } from '../database/rows';
import { documentAlternativePath, documentFilePath } from '../media/urls';

/** File extensions whose documents count as 3D models (file_contains_3d_model). */
export const MODEL_EXTENSIONS = ['stl', 'obj', '3mf', 'amf', 'ply', 'scad', 'jscad', 'ctm', 'step', 'stp', 'off'] as const;

type Doc = Pick<DocumentRow, 'id' | 'file_name'>;

export function containsModel(fileName: string): boolean {
  return (MODEL_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));
}

/** The formats this service can turn into binary STL: STL itself (served as is) and OBJ (converted). */
export function stlSource(fileName: string): 'stl' | 'obj' | null {
  const extension = fileExtension(fileName);
  return extension === 'stl' || extension === 'obj' ? extension : null;
}

const url = (value: string | null): UrlRef => ({ url: value });

/**
 * Read form: {} for a non-model; for a model the three keys, with a URL where this service can produce
 * the format (STL from .stl and .obj; never CTM) and null otherwise.
 */
export function alternativeFormats(document: Doc): Record<string, never> | Record<(typeof ALTERNATIVE_FORMAT_KEYS)[number], UrlRef> {
  if (!containsModel(document.file_name)) return {};
  const stl = stlSource(document.file_name) !== null;
  return {
    stl_file: url(stl ? documentAlternativePath(document, 'stl') : null),
    stl_zip_file: url(stl ? documentAlternativePath(document, 'stl_zip') : null),
    ctm_file: url(null),
  };
}

/** Creation form: the seven top-level slots; the ones matching the uploaded format carry a URL. */
export function creationFormatSlots(document: Doc): Record<(typeof CREATION_FORMAT_KEYS)[number], UrlRef> {
  const slots = Object.fromEntries(CREATION_FORMAT_KEYS.map((key) => [key, url(null)])) as Record<(typeof CREATION_FORMAT_KEYS)[number], UrlRef>;
  const extension = fileExtension(document.file_name);
  if (stlSource(document.file_name)) {
    slots.stl_file = url(documentAlternativePath(document, 'stl'));
    slots.stl_zip_file = url(documentAlternativePath(document, 'stl_zip'));
  }
  if (extension === 'obj') {
    slots.obj_file = url(documentFilePath(document));
    slots.obj_zip_file = url(documentAlternativePath(document, 'obj_zip'));
  }
  if (extension === 'scad') slots.scad_file = url(documentFilePath(document));
  if (extension === 'jscad') slots.jscad_file = url(documentFilePath(document));
  return slots;
}
