import type { ReadableDB } from './cache-database';
import { prepared } from './prepared';

function parse(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One cached image of a design as the service sent it, or null. Never touches the network. */
export function cachedImage(db: ReadableDB, id: number): { designId: number; raw: Record<string, unknown> } | null {
  const row = prepared(db, 'SELECT design_id, raw_json FROM images WHERE id = ?').get(id) as { design_id: number; raw_json: string } | undefined;
  return row ? { designId: row.design_id, raw: parse(row.raw_json) } : null;
}

/** One cached document of a design as the service sent it, or null. Never touches the network. */
export function cachedDocument(db: ReadableDB, id: number): { designId: number; raw: Record<string, unknown> } | null {
  const row = prepared(db, 'SELECT design_id, raw_json FROM documents WHERE id = ?').get(id) as { design_id: number; raw_json: string } | undefined;
  return row ? { designId: row.design_id, raw: parse(row.raw_json) } : null;
}
