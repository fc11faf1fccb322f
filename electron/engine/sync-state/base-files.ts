import type { Statement } from 'better-sqlite3';
import { statementsOf, type SyncDatabase } from './sync-database';

/** One file as it was last the same in the folder and on the service. Paths are relative to the sync root, with '/'. */
export interface BaseFile {
  path: string;
  folder: string;
  designId: number;
  kind: 'image' | 'document';
  remoteId: number;
  remoteName: string;
  remoteUpdatedAt: string | null;
  size: number;
  mtimeMs: number;
  /** "dev:ino", to tell a moved file from a new one. */
  inode: string | null;
  sha1: string;
  syncedAt: number;
}

interface BaseRow {
  path: string; folder: string; design_id: number; kind: 'image' | 'document'; remote_id: number; remote_name: string;
  remote_updated_at: string | null; size: number; mtime_ms: number; inode: string | null; sha1: string; synced_at: number;
}

const toBase = (row: BaseRow): BaseFile => ({
  path: row.path, folder: row.folder, designId: row.design_id, kind: row.kind, remoteId: row.remote_id, remoteName: row.remote_name,
  remoteUpdatedAt: row.remote_updated_at, size: row.size, mtimeMs: row.mtime_ms, inode: row.inode, sha1: row.sha1, syncedAt: row.synced_at,
});

/** The last synced state (table base_files). */
export class BaseFiles {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: SyncDatabase) {
    this.sql = statementsOf(db);
  }

  get(path: string): BaseFile | null {
    const row = this.sql('SELECT * FROM base_files WHERE path = ?').get(path) as BaseRow | undefined;
    return row ? toBase(row) : null;
  }

  byRemote(kind: 'image' | 'document', remoteId: number): BaseFile | null {
    const row = this.sql('SELECT * FROM base_files WHERE kind = ? AND remote_id = ?').get(kind, remoteId) as BaseRow | undefined;
    return row ? toBase(row) : null;
  }

  byInode(inode: string): BaseFile[] {
    return (this.sql('SELECT * FROM base_files WHERE inode = ?').all(inode) as BaseRow[]).map(toBase);
  }

  bySha1(sha1: string): BaseFile[] {
    return (this.sql('SELECT * FROM base_files WHERE sha1 = ?').all(sha1) as BaseRow[]).map(toBase);
  }

  inFolder(folder: string): BaseFile[] {
    return (this.sql('SELECT * FROM base_files WHERE folder = ? ORDER BY path').all(folder) as BaseRow[]).map(toBase);
  }

  ofDesign(designId: number): BaseFile[] {
    return (this.sql('SELECT * FROM base_files WHERE design_id = ? ORDER BY path').all(designId) as BaseRow[]).map(toBase);
  }

  all(): BaseFile[] {
    return (this.sql('SELECT * FROM base_files ORDER BY path').all() as BaseRow[]).map(toBase);
  }

  count(): number {
    return (this.sql('SELECT count(*) AS n FROM base_files').get() as { n: number }).n;
  }

  /** Records a file as synced (after an upload, a download, or finding both sides equal). Replaces what the path or the remote file had. */
  record(file: BaseFile): void {
    this.db.transaction(() => {
      this.sql('DELETE FROM base_files WHERE path = ? OR (kind = ? AND remote_id = ?)').run(file.path, file.kind, file.remoteId);
      this.sql(
        `INSERT INTO base_files (path, folder, design_id, kind, remote_id, remote_name, remote_updated_at, size, mtime_ms, inode, sha1, synced_at)
         VALUES (@path, @folder, @designId, @kind, @remoteId, @remoteName, @remoteUpdatedAt, @size, @mtimeMs, @inode, @sha1, @syncedAt)`,
      ).run(file);
    })();
  }

  /** A rename or move within the same design, done on both sides. */
  move(fromPath: string, toPath: string, changes: Partial<Pick<BaseFile, 'remoteName' | 'remoteUpdatedAt' | 'mtimeMs' | 'inode' | 'syncedAt'>>): void {
    const current = this.get(fromPath);
    if (!current) throw new Error(`No synced file at ${fromPath}`);
    const folder = toPath.split('/')[0]!;
    this.db.transaction(() => {
      this.sql('DELETE FROM base_files WHERE path = ?').run(fromPath);
      this.record({ ...current, ...changes, path: toPath, folder });
    })();
  }

  remove(path: string): void {
    this.sql('DELETE FROM base_files WHERE path = ?').run(path);
  }
}
