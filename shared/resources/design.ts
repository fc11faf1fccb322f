import { z } from 'zod';
import { LICENSE_CODES } from '../licenses/licenses';
import { imageFile, urlRef } from './file-url';
import { tag } from './tag';
import { designOwner } from './user';
import { timestamp } from './timestamp';

/** Fields every form of a design carries (spec §2.1). */
const designCoreShape = {
  id: z.number().int(),
  name: z.string().max(255),
  slug: z.string(),
  description: z.string(),
  user_id: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
  primary_image_id: z.number().int().nullable(),
  license: z.enum(LICENSE_CODES),
  state: z.string(),
  design_category_id: z.number().int(),
  excerpt: z.string().max(300),
  last_trending_popularity: z.number(),
  current_delta_popularity: z.number(),
  materials: z.string(),
  documents_zip: urlRef,
  download_count: z.number().int(),
  documents_download_count: z.number().int(),
  /** Not in the spec; the live service sends it (docs/service-choices.md): the source an adapted design credits. */
  attribution: z.string().nullable().optional(),
  /** Not in the spec; the live service sends the cover's file with its renditions, and leaves it out when the image is gone. */
  primary_image: z.object({ file: imageFile }).optional().catch(undefined),
};

/** List of designs, search and single-design reads: with tags and user. */
export const designShape = { ...designCoreShape, tags: z.array(tag), user: designOwner };
/** A user's designs (GET /v1/users/:id/designs): wiki_mode and zipper_worker_uuid instead of tags and user. */
export const userDesignShape = { ...designCoreShape, wiki_mode: z.boolean(), zipper_worker_uuid: z.string().nullable() };

export const design = z.object(designShape);
export const userDesign = z.object(userDesignShape);
export type Design = z.infer<typeof design>;
export type UserDesign = z.infer<typeof userDesign>;

/** States of a design. The spec shows only published; a new design starts as draft (docs/service-choices.md). */
export const DESIGN_STATES = ['draft', 'published'] as const;
export type DesignState = (typeof DESIGN_STATES)[number];
