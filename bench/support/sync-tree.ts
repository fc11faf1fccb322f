import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './service';
import { benchSyncParts } from './sync-assembly';

/** `folders` folders × `filesPerFolder` small files (`design-F/part-I.stl`) under `root`. */
export function writeTree(root: string, folders: number, filesPerFolder: number): void {
  for (let f = 0; f < folders; f++) {
    mkdirSync(join(root, folderName(f)), { recursive: true });
    for (let i = 0; i < filesPerFolder; i++) writeFileSync(join(root, folderName(f), `part-${i}.stl`), `solid part ${f}-${i}\nendsolid\n`);
  }
}

export const folderName = (f: number) => `design-${f}`;

/** A sync root of `folders` linked design folders × `filesPerFolder` small files, and an engine on it (settleMs 0, no network). */
export async function syntheticRoot(prefix: string, folders: number, filesPerFolder: number, options: { ignoreFile?: string } = {}) {
  const scratch = scratchDir(prefix);
  const root = join(scratch.path, 'Designs');
  if (options.ignoreFile !== undefined) {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, '.designsyncignore'), options.ignoreFile);
  }
  // No network: signed out, and the service address is never called in a local-only pass.
  const parts = await benchSyncParts(scratch.path, 'http://127.0.0.1:9', null, { settleMs: 0 });
  const { db, sync: engine } = parts;
  engine.root.choose(root, { profileDir: join(scratch.path, 'profile') });
  writeTree(root, folders, filesPerFolder);
  db.transaction(() => {
    for (let f = 0; f < folders; f++) engine.folders.link(folderName(f), 1000 + f);
  })();
  return { scratch, root, db, engine, dispose: async () => { await parts.close(); scratch.dispose(); } };
}
