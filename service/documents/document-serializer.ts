import { formatTimestamp, type CreatedDocument, type Document } from '../../shared';
import type { DocumentRow } from '../database/rows';
import { documentFilePath } from '../media/urls';
import { alternativeFormats, containsModel, creationFormatSlots } from './document-formats';

function parseProperties(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Fields both forms share (spec §2.3), in the spec's order. */
function coreFields(row: DocumentRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    user_id: row.user_id,
    documentable_id: row.design_id,
    documentable_type: 'Design',
    file: { url: documentFilePath(row) },
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    file_contains_3d_model: containsModel(row.file_name),
    design_tool_id: row.design_tool_id,
    design_tool_version_id: row.design_tool_version_id,
    file_tmp: null,
    properties: parseProperties(row.properties),
    download_count: row.download_count,
    modelhash: row.modelhash,
  };
}

/** Read form: GET of one document or of the list. */
export function serializeDocument(row: DocumentRow): Document {
  return { ...coreFields(row), alternative_formats: alternativeFormats(row), rendered_image: null };
}

/** Creation form: the 201 answer to POST. */
export function serializeCreatedDocument(row: DocumentRow): CreatedDocument {
  return { ...coreFields(row), ...creationFormatSlots(row) };
}
