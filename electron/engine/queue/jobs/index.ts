import type { QueueKind } from '../../../../shared';
import type { Job } from '../job';
import { createDesignJob } from './create-design-job';
import { deleteRemoteJob } from './delete-remote-job';
import { renameJob } from './rename-job';
import { replaceJob } from './replace-job';
import { updateDesignJob } from './update-design-job';
import { uploadJob } from './upload-job';

/** One job per kind of queue item. */
export const JOBS: { [K in QueueKind]: Job<K> } = {
  upload: uploadJob,
  replace: replaceJob,
  rename: renameJob,
  'delete-remote': deleteRemoteJob,
  'create-design': createDesignJob,
  'update-design': updateDesignJob,
};

/** The job of an item's kind, for an item already read as that kind (readJobItem). */
export function jobOf(kind: QueueKind): Job {
  return JOBS[kind] as unknown as Job;
}
