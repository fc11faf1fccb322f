import type { Statement } from 'better-sqlite3';
import { statementsOf, type SyncDatabase } from './sync-database';

export type DesignFolderState = 'linked' | 'proposed' | 'creating' | 'ignored';

export interface DesignFolder {
  /** The folder's name in the sync root. */
  folder: string;
  designId: number | null;
  state: DesignFolderState;
}

interface FolderRow { folder: string; design_id: number | null; state: DesignFolderState }
const toFolder = (row: FolderRow): DesignFolder => ({ folder: row.folder, designId: row.design_id, state: row.state });

/** Top-level folders and the own designs they stand for (table design_folders). */
export class DesignFolders {
  private readonly sql: (text: string) => Statement;

  constructor(private readonly db: SyncDatabase, private readonly now: () => number = Date.now) {
    this.sql = statementsOf(db);
  }

  get(folder: string): DesignFolder | null {
    const row = this.sql('SELECT folder, design_id, state FROM design_folders WHERE folder = ?').get(folder) as FolderRow | undefined;
    return row ? toFolder(row) : null;
  }

  ofDesign(designId: number): DesignFolder | null {
    const row = this.sql('SELECT folder, design_id, state FROM design_folders WHERE design_id = ?').get(designId) as FolderRow | undefined;
    return row ? toFolder(row) : null;
  }

  all(): DesignFolder[] {
    return (this.sql('SELECT folder, design_id, state FROM design_folders ORDER BY folder').all() as FolderRow[]).map(toFolder);
  }

  link(folder: string, designId: number): void {
    const at = this.now();
    this.sql(
      `INSERT INTO design_folders (folder, design_id, state, created_at, updated_at) VALUES (?, ?, 'linked', ?, ?)
       ON CONFLICT (folder) DO UPDATE SET design_id = excluded.design_id, state = 'linked', made = 1, updated_at = excluded.updated_at`,
    ).run(folder, designId, at, at);
  }

  /** Links a folder about to be made on disk for a design; markMade once it is there. */
  linkToMake(folder: string, designId: number): void {
    const at = this.now();
    this.sql(`INSERT INTO design_folders (folder, design_id, state, made, created_at, updated_at) VALUES (?, ?, 'linked', 0, ?, ?)`).run(folder, designId, at, at);
  }

  markMade(folder: string): void {
    this.sql('UPDATE design_folders SET made = 1, updated_at = ? WHERE folder = ?').run(this.now(), folder);
  }

  /** Linked folders whose making was interrupted (a crash between the link and the folder). */
  toMake(): DesignFolder[] {
    return (this.sql(`SELECT folder, design_id, state FROM design_folders WHERE state = 'linked' AND made = 0 ORDER BY folder`).all() as FolderRow[]).map(toFolder);
  }

  setState(folder: string, state: Exclude<DesignFolderState, 'linked'>): void {
    const at = this.now();
    this.sql(
      `INSERT INTO design_folders (folder, design_id, state, created_at, updated_at) VALUES (?, NULL, ?, ?, ?)
       ON CONFLICT (folder) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    ).run(folder, state, at, at);
  }

  remove(folder: string): void {
    this.sql('DELETE FROM design_folders WHERE folder = ?').run(folder);
  }
}
