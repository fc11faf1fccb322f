import { lstat, mkdir, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DroppedFileView } from '../../../shared';
import type { DroppedFile as PlacedFile } from '../own-designs/dropped-files';
import type { OwnDesigns } from '../own-designs/own-designs';
import type { ProfilePaths } from '../profile/profile';
import { EngineError } from '../runtime/engine-error';
import { warnUnlessMissing } from '../log/engine-log';

/** The bytes of a dropped file's way in: the contract stages them; the rules of placing it are the own-designs service's. */
export interface DroppedFile extends PlacedFile {
  /** Where the host staged the bytes: a file directly inside the profile's incoming folder. */
  stagedPath: string;
}

/** The profile's folder for staged drops, made when missing (only its user may read it). */
export async function incomingDirOf(profile: Pick<ProfilePaths, 'incomingDir'>): Promise<string> {
  await mkdir(profile.incomingDir, { recursive: true, mode: 0o700 });
  return profile.incomingDir;
}

/** A staged path is only ever a file the host wrote directly inside the incoming folder, never anything a caller names. */
async function checkedStagedPath(profile: Pick<ProfilePaths, 'incomingDir'>, stagedPath: string): Promise<string> {
  const incoming = await realpath(await incomingDirOf(profile));
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
 * A file dropped on one of the person's own designs, as the host staged it: the staged path checked (only a file the
 * host wrote directly inside the incoming folder), then handed to the own-designs service, whose rules place it
 * (own-designs/dropped-files.ts). The staged file is always gone afterwards: moved into the folder, or removed on
 * refusal.
 */
export async function adoptDroppedFile(profile: Pick<ProfilePaths, 'incomingDir'>, drop: DroppedFile, ownDesigns: OwnDesigns): Promise<DroppedFileView> {
  let placed = false;
  try {
    const stagedPath = await checkedStagedPath(profile, drop.stagedPath);
    const view = await ownDesigns.addDroppedFile({ ...drop, stagedPath });
    placed = true;
    return view;
  } finally {
    if (!placed) await removeStaged(profile, drop.stagedPath);
  }
}

/** A refused drop's staged file goes, but only a file directly in the incoming folder: never what else a caller names. */
async function removeStaged(profile: Pick<ProfilePaths, 'incomingDir'>, stagedPath: string): Promise<void> {
  const resolved = async (path: string) => realpath(path).catch((error: unknown) => {
    warnUnlessMissing('drops', `the refused drop's folder ${path} cannot be resolved; the staged file is left`)(error);
    return null;
  });
  const incoming = await resolved(profile.incomingDir);
  const parent = await resolved(dirname(stagedPath));
  if (!incoming || parent !== incoming) return;
  const path = join(incoming, basename(stagedPath));
  if (await lstat(path).then((info) => info.isFile(), () => false)) await unlink(path).catch(warnUnlessMissing('drops', `the refused drop ${path} could not be removed`));
}
