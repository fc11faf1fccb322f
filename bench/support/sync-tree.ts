import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { openSyncDatabase } from '../../electron/engine/sync-state/sync-database';
import { SyncEngine } from '../../electron/engine/sync/sync-engine';
import { scratchDir } from './service';

/** `folders` folders × `filesPerFolder` small files (`design-F/part-I.stl`) under `root`. */
export function writeTree(root: string, folders: number, filesPerFolder: number): void {
  for (let f = 0; f < folders; f++) {
    mkdirSync(join(root, folderName(f)), { recursive: true });
    for (let i = 0; i < filesPerFolder; i++) writeFileSync(join(root, folderName(f), `part-${i}.stl`), `solid part ${f}-${i}\nendsolid\n`);
  }
}

export const folderName = (f: number) => `design-${f}`;

/** A sync root of `folders` linked design folders × `filesPerFolder` small files, and an engine on it (settleMs 0, no network). */
export function syntheticRoot(prefix: string, folders: number, filesPerFolder: number) {
  const scratch = scratchDir(prefix);
  const root = join(scratch.path, 'Designs');
  const db = openSyncDatabase(join(scratch.path, 'sync.sqlite'));
  // No network: the service address is never called in a local-only pass.
  const engine = new SyncEngine({ db, client: new ServiceClient({ baseUrl: 'http://127.0.0.1:9', token: () => null }), settleMs: 0, trash: 'folder' });
  engine.root.choose(root, { profileDir: join(scratch.path, 'profile') });
  writeTree(root, folders, filesPerFolder);
  db.transaction(() => {
    for (let f = 0; f < folders; f++) engine.folders.link(folderName(f), 1000 + f);
  })();
  return { scratch, root, db, engine, dispose: async () => { await engine.stop(); db.close(); scratch.dispose(); } };
}
