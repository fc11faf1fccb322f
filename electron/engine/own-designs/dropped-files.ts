import { randomBytes } from 'node:crypto';
import { copyFile, link, lstat, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { droppedFileNameRefusalWords, type DroppedFileView } from '../../../shared';
import { englishOf } from '../../../shared/i18n/worded-error';
import { isServiceError } from '../api/service-error';
import { warnUnlessMissing } from '../log/engine-log';
import { EngineError } from '../runtime/engine-error';
import { nameKey, safeName, uniqueName } from '../sync/sync-names';
import { ownDesign, requireSignedIn } from './own-design-rules';
import type { OwnDesignsDeps } from './own-designs-deps';
import { said } from '../queue/said';

/** A file given to one of the person's own designs: its bytes already in a file of the engine's own (staged). */
export interface DroppedFile {
  designId: number;
  fileName: string;
  /** The file to move into the design's folder: one the host staged, already checked (contract/dropped-files.ts). */
  stagedPath: string;
  /** For the activity list: the model file a cover picture was made from (default: dropped in the window). */
  coverMadeFrom?: string;
}

type DropDeps = Pick<OwnDesignsDeps, 'session' | 'confirmUser' | 'cache' | 'interactiveClient' | 'sync' | 'queue' | 'contentPolicyAccepted'>;

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

/** The sync folder's path and the design's folder in it (made when the design has none yet); refused with why. */
async function designFolderOf(deps: DropDeps, designId: number): Promise<{ root: string; folder: string }> {
  const sync = deps.sync();
  const root = sync?.root.current();
  if (!sync || !root) throw EngineError.of('sync-folder', 'engine.refusal.drop.noSyncFolder');
  const check = sync.root.verify();
  if (!check.ok) throw new EngineError({ kind: 'sync-folder', message: check.reason, words: check.words });
  const summary = await ownDesign(deps, designId);
  const folder = await sync.folderFor({ id: summary.id, slug: summary.slug, name: summary.name });
  if (!folder) throw EngineError.of('conflict', 'engine.refusal.drop.folderBeingMade', { name: summary.name });
  return { root: check.root.path, folder };
}

/**
 * A file dropped on one of the person's own designs: put in the design's folder in the sync folder (made when the
 * design has none yet) under a name not taken, and the sync engine told to look there now; the sync folder's scan
 * and the durable queue upload it (waiting for the content policy, rule 5, like any file). Refused with a clear
 * problem, nothing placed: a name that cannot be a file's, signed out, no sync folder (or not as it was), a design
 * that is not the person's. The staged file is moved, never copied; on a refusal it is left to the caller.
 */
export async function addDroppedFile(deps: DropDeps, drop: DroppedFile): Promise<DroppedFileView> {
  const refusal = droppedFileNameRefusalWords(drop.fileName);
  if (refusal) {
    const english = englishOf(refusal);
    throw new EngineError({ kind: 'validation', message: english, fieldErrors: { fileName: [english] }, words: refusal });
  }
  await requireSignedIn(deps);
  const { root, folder } = await designFolderOf(deps, drop.designId).catch((error: unknown) => {
    if (isServiceError(error, 'offline')) throw EngineError.of('not-cached', 'engine.refusal.drop.notCached');
    throw error;
  });
  const size = (await lstat(drop.stagedPath)).size;
  const wanted = safeName(drop.fileName, 'dropped-file');
  const dir = join(root, folder);
  for (let attempt = 0; attempt < 20; attempt++) {
    const present = new Set((await readdir(dir)).map(nameKey));
    const name = uniqueName(wanted, (key) => present.has(key), true);
    if (await placeWithoutOverwrite(drop.stagedPath, join(dir, name))) {
      deps.sync()?.noticeFolder(folder);
      const line = drop.coverMadeFrom === undefined
        ? said('activity.drop.added', { name, folder })
        : said('activity.drop.coverAdded', { name, folder, model: drop.coverMadeFrom });
      deps.queue.log('info', line, `${folder}/${name}`);
      return { designId: drop.designId, fileName: name, folder, path: `${folder}/${name}`, size, contentPolicyAccepted: deps.contentPolicyAccepted() };
    }
    // Taken between the look and the move: look again.
  }
  throw EngineError.of('conflict', 'engine.refusal.drop.noFreeName', { file: drop.fileName, folder });
}
