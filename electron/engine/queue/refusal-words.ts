import { describeLabelledFieldErrors, type FieldErrors, type ServiceProblem } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { describeItem } from './describe-item';
import { fileNameOf } from './file-version';
import type { QueueItem } from './queue-item';
import { fieldErrorsSaid } from './field-words';
import { said, type Said } from './said';

type Refusal = Extract<ServiceProblem, { kind: 'validation' | 'bad-request' | 'forbidden' }>;
type Subject = Pick<QueueItem, 'id' | 'kind' | 'path' | 'folder' | 'fileKind'>;

/** Ends a message with a full stop when it has none. */
export function sentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What the item is about, as a person names it: the file, the folder's design, or the item. */
function subjectOf(item: Subject): Said | string {
  if (item.path) return item.path;
  if (item.kind === 'create-design' && item.folder) return said('queue.reason.designForFolder', { folder: item.folder });
  return item.folder ? said('activity.item.folder', { folder: item.folder }) : said('activity.item.numbered', { id: item.id });
}

const isFileChange = (item: Subject) => item.path !== null && (item.kind === 'upload' || item.kind === 'replace');

/** A file message of the service without the file name it may start with ("gear.stl: …" → "…"). */
function withoutName(message: string, fileName: string): string {
  return message.startsWith(`${fileName}:`) ? message.slice(fileName.length + 1).trim() : message;
}

/** A 422 in the window's words: the file the service could not read, or its fields under the window's labels. */
function validationWords(item: Subject, errors: FieldErrors, subject: Said | string): Said {
  const { file, ...fields } = errors;
  if (file && isFileChange(item)) {
    const name = fileNameOf(item.path!);
    if (item.fileKind === 'image') {
      return said('queue.reason.imageUnreadable', { name });
    }
    const why = file.map((message) => withoutName(message, name)).join('; ');
    return said('queue.reason.fileNotAccepted', { name, why: sentence(why) });
  }
  const described = describeLabelledFieldErrors(file ? errors : fields);
  const facts = fieldErrorsSaid(file ? errors : fields);
  if (!described || !facts) return said('queue.reason.refusedWithoutWhy', { subject });
  // The facts when the English needs no full stop added (as sentence() would add it), else the English as it is.
  return /[.!?)]$/.test(described.trim()) ? said('queue.reason.refusedFields', { subject, why: sentence(described) }) : said('queue.reason.refusedFieldList', { subject, errors: facts });
}

/**
 * A refusal of the service (422, 400, 403, 413…) as a person reads it on the item and in the activity list: said once,
 * in the window's vocabulary, with no library text (such as an image decoder's "pngload: missing IHDR chunk"); the
 * service's own words go to the engine log.
 */
export function refusalWords(problem: Refusal, item: Subject, subject: Said | string = subjectOf(item)): Said {
  engineLog.warn('queue', `the service refused ${describeItem(item).text} (${problem.kind}): ${problem.message}`);
  if (problem.kind === 'validation') return validationWords(item, problem.fieldErrors, subject);
  if (problem.kind === 'forbidden') return said('queue.reason.notAllowed', { subject });
  if (problem.status === 413) return said('queue.reason.tooLarge', { subject });
  if (problem.status === 415) return said('queue.reason.typeNotTaken', { subject });
  return said('queue.reason.refused', { subject, why: sentence(problem.message) });
}
