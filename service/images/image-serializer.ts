import { formatTimestamp, type Image } from '../../shared';
import type { ImageRow } from '../database/rows';
import { imageFileObject } from '../media/urls';

/** Spec §2.2, fields in the spec's order. */
export function serializeImage(row: ImageRow): Image {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    user_id: row.user_id,
    imagable_id: row.design_id,
    imagable_type: 'Design',
    file: imageFileObject(row),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    contribution_id: row.contribution_id,
  };
}
