import type { ServiceDatabase } from '../database/open-database';
import type { DocumentRow } from '../database/rows';

export function listDesignDocuments(db: ServiceDatabase, designId: number): DocumentRow[] {
  return db.prepare('SELECT * FROM documents WHERE design_id = ? ORDER BY id').all(designId) as DocumentRow[];
}

export function findDesignDocument(db: ServiceDatabase, designId: number, documentId: number): DocumentRow | undefined {
  return db.prepare('SELECT * FROM documents WHERE id = ? AND design_id = ?').get(documentId, designId) as DocumentRow | undefined;
}

export function findDocument(db: ServiceDatabase, documentId: number): DocumentRow | undefined {
  return db.prepare('SELECT * FROM documents WHERE id = ?').get(documentId) as DocumentRow | undefined;
}

export interface StoredContent {
  fileName: string;
  byteSize: number;
  modelhash: string;
}

export interface NewDocument extends StoredContent {
  designId: number;
  userId: number;
  name: string;
  description: string;
  now: number;
  storageKeyFor: (id: number) => string;
}

export function insertDocument(db: ServiceDatabase, document: NewDocument): DocumentRow {
  return db.transaction(() => {
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO documents (design_id, user_id, name, description, file_name, storage_key, byte_size, modelhash, created_at, updated_at)
         VALUES (@designId, @userId, @name, @description, @fileName, '', @byteSize, @modelhash, @now, @now)`,
      )
      .run(document);
    const id = Number(lastInsertRowid);
    db.prepare('UPDATE documents SET storage_key = ? WHERE id = ?').run(document.storageKeyFor(id), id);
    return db.prepare('SELECT * FROM documents WHERE id = ?').get(id) as DocumentRow;
  })();
}

export function updateDocument(
  db: ServiceDatabase, id: number, changes: { name?: string; description?: string; content?: StoredContent }, now: number,
): void {
  db.prepare(
    `UPDATE documents SET name = coalesce(@name, name), description = coalesce(@description, description),
     file_name = coalesce(@fileName, file_name), byte_size = coalesce(@byteSize, byte_size), modelhash = coalesce(@modelhash, modelhash),
     updated_at = max(updated_at + 1, @now) WHERE id = @id`,
  ).run({
    name: changes.name ?? null, description: changes.description ?? null, fileName: changes.content?.fileName ?? null,
    byteSize: changes.content?.byteSize ?? null, modelhash: changes.content?.modelhash ?? null, now, id,
  });
}

export function deleteDocument(db: ServiceDatabase, id: number): void {
  db.prepare('DELETE FROM documents WHERE id = ?').run(id);
}

/** A download of a document's file counts for the document and for its design. */
export function countDocumentDownload(db: ServiceDatabase, document: DocumentRow): void {
  db.transaction(() => {
    db.prepare('UPDATE documents SET download_count = download_count + 1 WHERE id = ?').run(document.id);
    db.prepare('UPDATE designs SET documents_download_count = documents_download_count + 1 WHERE id = ?').run(document.design_id);
  })();
}

/** A download of the design's documents zip counts as a download of the design. */
export function countDesignDownload(db: ServiceDatabase, designId: number): void {
  db.prepare('UPDATE designs SET download_count = download_count + 1 WHERE id = ?').run(designId);
}
