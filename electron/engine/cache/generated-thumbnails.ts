import { extname } from 'node:path';
import { isViewableModelType } from '../../../shared/files/model-files';
import type { ReadableDB, WritableDB } from './cache-database';
import { prepared } from './prepared';
import { engineLog } from '../log/engine-log';

/**
 * Pictures made here from a design's first model when it has no image (`generated_thumbnails`): which model a design's
 * picture is made from, and whether the one stored is still that model's (its document and `updated_at`).
 */

/** A design's model a picture is made from: its first viewable one, meshes before G-code. */
export interface ThumbnailModel {
  documentId: number;
  /** The document's name as the service labels it ("Cube (STL)"): what its file address is named by. */
  name: string;
  /** The file's own name, from its address ("cube20.stl"): what "Generated from …" says. */
  fileName: string;
  type: string;
  /** The document's `updated_at`: a picture made from another version is stale. */
  version: string | null;
}

export interface GeneratedThumbnailRow {
  designId: number;
  documentId: number;
  documentVersion: string | null;
  fileName: string;
  byteSize: number;
  madeAt: number;
  /** The window could not make a picture of this version (why, in words): no bytes, and not tried again. */
  problem: string | null;
}

/**
 * A design without an image: the model its picture is made from, and what is stored of that version (a picture, or
 * the problem that kept the window from making one); null when nothing is yet (or only of another version).
 */
export interface GeneratedCover {
  model: ThumbnailModel;
  generated: GeneratedThumbnailRow | null;
}

/** Meshes first (the formats makers share most, then the rest), G-code's toolpaths last. */
const RANK: Record<string, number> = { stl: 0, '3mf': 1, obj: 2, amf: 3, ply: 4, gltf: 5, glb: 6, gcode: 9 };

function parseRaw(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch (error) {
    engineLog.warn('cache', 'a cached document is not readable JSON (no picture is made from it)', error);
    return {};
  }
}

function fileNameOfUrl(url: string): string {
  try {
    const last = new URL(url, 'http://file.invalid').pathname.split('/').pop() ?? '';
    return decodeURIComponent(last);
  } catch {
    return '';
  }
}

function modelOf(row: { id: number; updated_at: string | null; raw_json: string }): ThumbnailModel | null {
  const raw = parseRaw(row.raw_json);
  const url = (raw.file as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string') return null;
  const fileName = fileNameOfUrl(url);
  const type = extname(fileName).slice(1).toLowerCase();
  if (!isViewableModelType(type)) return null;
  const name = typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : fileName;
  return { documentId: row.id, name, fileName, type, version: row.updated_at };
}

/** The model each design's picture would be made from (designs with no viewable model are left out). */
export function thumbnailModels(db: ReadableDB, designIds: readonly number[]): Map<number, ThumbnailModel> {
  const models = new Map<number, ThumbnailModel>();
  if (designIds.length === 0) return models;
  const rows = prepared(db,
    `SELECT id, design_id, updated_at, raw_json FROM documents
     WHERE design_id IN (SELECT value FROM json_each(?)) ORDER BY design_id, position, id`,
  ).all(JSON.stringify(designIds)) as { id: number; design_id: number; updated_at: string | null; raw_json: string }[];
  for (const row of rows) {
    const model = modelOf(row);
    if (!model) continue;
    const known = models.get(row.design_id);
    if (!known || RANK[model.type]! < RANK[known.type]!) models.set(row.design_id, model);
  }
  return models;
}

type Row = { design_id: number; document_id: number; document_version: string | null; file_name: string; byte_size: number; made_at: number; problem: string | null };
const rowOf = (row: Row): GeneratedThumbnailRow => ({
  designId: row.design_id, documentId: row.document_id, documentVersion: row.document_version, fileName: row.file_name, byteSize: row.byte_size,
  madeAt: row.made_at, problem: row.problem,
});

/** The stored picture of a design, current or not; null when none is. */
export function generatedThumbnailRow(db: ReadableDB, designId: number): GeneratedThumbnailRow | null {
  const row = prepared(db, 'SELECT * FROM generated_thumbnails WHERE design_id = ?').get(designId) as Row | undefined;
  return row ? rowOf(row) : null;
}

/** Whether a stored picture was made from this model as it is now (another document or version: stale). */
export function isCurrent(row: GeneratedThumbnailRow, model: ThumbnailModel): boolean {
  return row.documentId === model.documentId && row.documentVersion === model.version;
}

/**
 * For the designs among these that have no cover image and a viewable model: the model and, when it is current, the
 * picture made from it. A design with an image never gets one (its own cover always wins).
 */
export function generatedCovers(db: ReadableDB, designs: readonly { id: number; coverImageId: number | null }[]): Map<number, GeneratedCover> {
  const ids = designs.filter((design) => design.coverImageId === null).map((design) => design.id);
  const covers = new Map<number, GeneratedCover>();
  if (ids.length === 0) return covers;
  const models = thumbnailModels(db, ids);
  if (models.size === 0) return covers;
  const rows = prepared(db, 'SELECT * FROM generated_thumbnails WHERE design_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...models.keys()])) as Row[];
  const stored = new Map(rows.map((row) => [row.design_id, rowOf(row)]));
  for (const [id, model] of models) {
    const row = stored.get(id);
    covers.set(id, { model, generated: row && isCurrent(row, model) ? row : null });
  }
  return covers;
}

/** Writes a design's picture's row (the one writer is library/generated-thumbnails.ts). */
export function writeGeneratedThumbnail(db: WritableDB, row: GeneratedThumbnailRow): void {
  prepared(db,
    `INSERT INTO generated_thumbnails (design_id, document_id, document_version, file_name, byte_size, made_at, problem)
     VALUES (@designId, @documentId, @documentVersion, @fileName, @byteSize, @madeAt, @problem)
     ON CONFLICT (design_id) DO UPDATE SET document_id = excluded.document_id, document_version = excluded.document_version,
       file_name = excluded.file_name, byte_size = excluded.byte_size, made_at = excluded.made_at, problem = excluded.problem`,
  ).run(row);
}
