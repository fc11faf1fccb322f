import { z } from 'zod';
import { imageFile } from './file-url';
import { timestamp } from './timestamp';

/** Spec §2.2. */
export const imageShape = {
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  user_id: z.number().int(),
  imagable_id: z.number().int(),
  imagable_type: z.string(),
  file: imageFile,
  created_at: timestamp,
  updated_at: timestamp,
  contribution_id: z.number().int().nullable(),
};
export const image = z.object(imageShape);
export type Image = z.infer<typeof image>;
