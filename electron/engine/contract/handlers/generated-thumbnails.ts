import { randomBytes } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import { join, parse } from 'node:path';
import { EngineError } from '../../runtime/engine-error';
import { adoptDroppedFile, incomingDirOf } from '../dropped-files';
import { proposalModel } from '../proposal-models';
import type { Handlers } from '../handler-types';

/** The name the picture gets in the design's folder: "cube20 cover.png" for a picture made from cube20.stl. */
export const coverFileName = (modelFileName: string) => `${(parse(modelFileName).name || 'model').slice(0, 200)} cover.png`;

export const GENERATED_THUMBNAIL_HANDLERS: Handlers<'design.thumbnailFailed' | 'design.useGeneratedCover' | 'queue.proposalModel'> = {
  'queue.proposalModel': (services, { id }) => proposalModel(services, id),
  'design.thumbnailFailed': ({ thumbnails }, { designId, documentId, reason }) => ({ remembered: thumbnails.failed(designId, documentId, reason) }),
  /**
   * Only on the person's confirmation (rule 4): a copy of the design's current generated picture goes into its folder
   * in the sync folder, as a dropped file does; the scan and the queue upload it (offline it waits, and the activity
   * list says so). The picture itself stays until the design's image is known.
   */
  'design.useGeneratedCover': async ({ thumbnails, ownDesigns, profile }, { id }) => {
    const current = thumbnails.current(id);
    if (!current) throw new EngineError({ kind: 'conflict', message: 'This design has no picture made from its model now: open its page to make one, then use it.' });
    const stagedPath = join(await incomingDirOf(profile), `cover-${randomBytes(12).toString('hex')}`);
    await copyFile(current.path, stagedPath);
    return adoptDroppedFile(profile, { designId: id, fileName: coverFileName(current.row.fileName), stagedPath, coverMadeFrom: current.row.fileName }, ownDesigns);
  },
};
