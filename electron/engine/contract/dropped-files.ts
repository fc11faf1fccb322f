import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, mkdir, readdir, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { droppedFileNameRefusal, type DroppedFileView } from '../../../shared';
import { isServiceError } from '../api/service-error';
import type { Engine } from '../runtime/engine';
import { EngineError } from '../runtime/engine-error';
import { nameKey, safeName, uniqueName } from '../sync/sync-names';
import { ownDesign, requireSignedIn } from '../own-designs/own-design-rules';
import { warnUnlessMissing } from '../log/engine-log';

export interface DroppedFile {
  designId: number;
  fileName: string;
  /** Where the host staged the bytes: a file directly inside the profile's incoming folder. */
  stagedPath: string;
  /** How it came, for the activity list (default: dropped in the window). */
  origin?: string;
}

/** The profile's folder for staged drops, made when missing (only its user may read it). */
export async function incomingDirOf(engine: Engine): Promise<string> {
  await mkdir(engine.profile.incomingDir, { recursive: true, mode: 0o700 });
  return engine.profile.incomingDir;
}

/** A staged path is only ever a file the host wrote directly inside the incoming folder, never anything a caller names. */
async function checkedStagedPath(engine: Engine, stagedPath: string): Promise<string> {
  const incoming = await realpath(await incomingDirOf(engine));
  const parent = await realpath(dirname(stagedPath)).catch(() => null);
  const name = basename(stagedPath);
  if (parent !== incoming || name === '' || name.startsWith('..')) {
    throw new EngineError({ kind: 'validation', message: 'A dropped file must be staged in the profile\'s incoming folder.', fieldErrors: { stagedPath: ['is not in the profile\'s incoming folder'] } });
  }
  const path = join(incoming, name);
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) throw new EngineError({ kind: 'validation', message: 'The staged file is not there.', fieldErrors: { stagedPath: ['is not a file'] } });
  return path;
}

/**
 * Moves a finished file to `target` only if nothing is there, atomically: a hard link (fails on an existing name)
 * then the staged name removed; across file systems, a copy under a hidden temporary name in the target's folder
 * (ignored by scans), then linked into place. A half-written file is never visible under its final name.
 */
async function placeWithoutOverwrite(staged: string, target: string): Promise<boolean> {
  try {
    await link(staged, target);
    await unlink(staged);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  const temp = join(dirname(target), `.design-sync-${randomBytes(6).toString('hex')}.tmp`);
  await copyFile(staged, temp);
  try {
    await link(temp, target);
    await unlink(temp);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      await unlink(temp).catch(warnUnlessMissing('drops', `the temporary copy ${temp} could not be removed`));
      return false;
    }
    // No hard links here (FAT, some shares): check, then rename (the narrowest window there is).
    if (await lstat(target).then(() => true, () => false)) {
      await unlink(temp).catch(warnUnlessMissing('drops', `the temporary copy ${temp} could not be removed`));
      return false;
    }
    await rename(temp, target);
  }
  await unlink(staged);
  return true;
}

async function designFolderOf(engine: Engine, designId: number): Promise<{ root: string; folder: string }> {
  const { sync } = engine.syncParts();
  const root = sync.root.current();
  if (!root) throw new EngineError({ kind: 'sync-folder', message: 'No sync folder is chosen yet: choose one in Sync, then drop the files again.' });
  const check = sync.root.verify();
  if (!check.ok) throw new EngineError({ kind: 'sync-folder', message: check.reason });
  const summary = await ownDesign(engine, designId);
  const folder = await sync.folderFor({ id: summary.id, slug: summary.slug, name: summary.name });
  if (!folder) throw new EngineError({ kind: 'conflict', message: `The folder of "${summary.name}" is being made: drop the files again in a moment.` });
  return { root: check.root.path, folder };
}

/**
 * A file dropped on one of the person's own designs: put in the design's folder in the sync folder (made when the
 * design has none yet) under a name not taken, and the sync engine told to look there now; the sync folder's
 * scan and the durable queue upload it (waiting for the content policy, rule 5, like any file). The staged file
 * is always gone afterwards: moved into the folder, or removed on refusal.
 */
export async function adoptDroppedFile(engine: Engine, drop: DroppedFile): Promise<DroppedFileView> {
  let placed = false;
  try {
    const staged = await checkedStagedPath(engine, drop.stagedPath);
    const refusal = droppedFileNameRefusal(drop.fileName);
    if (refusal) throw new EngineError({ kind: 'validation', message: refusal, fieldErrors: { fileName: [refusal] } });
    await requireSignedIn(engine);
    const { root, folder } = await designFolderOf(engine, drop.designId).catch((error: unknown) => {
      if (isServiceError(error, 'offline')) throw new EngineError({ kind: 'not-cached', message: 'This design is not cached and the service cannot be reached: drop the file again when it is back.' });
      throw error;
    });
    const size = (await lstat(staged)).size;
    const wanted = safeName(drop.fileName, 'dropped-file');
    const dir = join(root, folder);
    for (let attempt = 0; attempt < 20; attempt++) {
      const present = new Set((await readdir(dir)).map(nameKey));
      const name = uniqueName(wanted, (key) => present.has(key), true);
      if (await placeWithoutOverwrite(staged, join(dir, name))) {
        placed = true;
        engine.syncParts().sync.noticeFolder(folder);
        engine.queue.log('info', `Added ${name} to the folder ${folder} (${drop.origin ?? 'dropped in the window'}).`, `${folder}/${name}`);
        return { designId: drop.designId, fileName: name, folder, path: `${folder}/${name}`, size, contentPolicyAccepted: engine.contentPolicyAccepted() };
      }
      // Taken between the look and the move: look again.
    }
    throw new EngineError({ kind: 'conflict', message: `No free name for ${drop.fileName} in the folder ${folder}.` });
  } finally {
    if (!placed) await removeStaged(engine, drop.stagedPath);
  }
}

/** A refused drop's staged file goes, but only a file directly in the incoming folder: never what else a caller names. */
async function removeStaged(engine: Engine, stagedPath: string): Promise<void> {
  const resolved = async (path: string) => realpath(path).catch((error: unknown) => {
    warnUnlessMissing('drops', `the refused drop's folder ${path} cannot be resolved; the staged file is left`)(error);
    return null;
  });
  const incoming = await resolved(engine.profile.incomingDir);
  const parent = await resolved(dirname(stagedPath));
  if (!incoming || parent !== incoming) return;
  const path = join(incoming, basename(stagedPath));
  if (await lstat(path).then((info) => info.isFile(), () => false)) await unlink(path).catch(warnUnlessMissing('drops', `the refused drop ${path} could not be removed`));
}
