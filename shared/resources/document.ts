import { z } from 'zod';
import { urlRef } from './file-url';
import { timestamp } from './timestamp';

const documentCoreShape = {
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  user_id: z.number().int(),
  documentable_id: z.number().int(),
  documentable_type: z.string(),
  file: urlRef,
  created_at: timestamp,
  updated_at: timestamp,
  file_contains_3d_model: z.boolean(),
  design_tool_id: z.number().int().nullable(),
  design_tool_version_id: z.number().int().nullable(),
  file_tmp: z.null(),
  properties: z.record(z.string(), z.unknown()).nullable(),
  download_count: z.number().int(),
  modelhash: z.string(),
};

/** Keys of alternative_formats for 3D model files in reads. */
export const ALTERNATIVE_FORMAT_KEYS = ['stl_file', 'stl_zip_file', 'ctm_file'] as const;
/** Top-level format slots of the document creation response. */
export const CREATION_FORMAT_KEYS = [
  'ctm_file', 'jscad_file', 'obj_file', 'obj_zip_file', 'scad_file', 'stl_file', 'stl_zip_file',
] as const;

/** Read form: GET of one document or of the list. */
export const documentShape = {
  ...documentCoreShape,
  alternative_formats: z.union([
    z.object({}).strict(),
    z.object(Object.fromEntries(ALTERNATIVE_FORMAT_KEYS.map((key) => [key, urlRef])) as Record<(typeof ALTERNATIVE_FORMAT_KEYS)[number], typeof urlRef>),
  ]),
  rendered_image: z.unknown().nullable(),
};
/** Creation form: the 201 answer to POST; format slots at top level, no alternative_formats or rendered_image. */
export const createdDocumentShape = {
  ...documentCoreShape,
  ...(Object.fromEntries(CREATION_FORMAT_KEYS.map((key) => [key, urlRef])) as Record<(typeof CREATION_FORMAT_KEYS)[number], typeof urlRef>),
};

export const document = z.object(documentShape);
export const createdDocument = z.object(createdDocumentShape);
export type Document = z.infer<typeof document>;
export type CreatedDocument = z.infer<typeof createdDocument>;
