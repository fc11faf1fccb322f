import { describeLabelledFieldErrors, type FieldErrors, type ServiceProblem } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { describeItem } from './describe-item';
import { fileNameOf } from './file-version';
import type { QueueItem } from './queue-item';

type Refusal = Extract<ServiceProblem, { kind: 'validation' | 'bad-request' | 'forbidden' }>;
type Subject = Pick<QueueItem, 'id' | 'kind' | 'path' | 'folder' | 'fileKind'>;

/** Ends a message with a full stop when it has none. */
export function sentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What the item is about, as a person names it: the file, the folder's design, or the item. */
function subjectOf(item: Subject): string {
  if (item.path) return item.path;
  if (item.kind === 'create-design' && item.folder) return `the design for the folder "${item.folder}"`;
  return item.folder ? `the folder "${item.folder}"` : `item ${item.id}`;
}

const isFileChange = (item: Subject) => item.path !== null && (item.kind === 'upload' || item.kind === 'replace');

/** A file message of the service without the file name it may start with ("gear.stl: …" → "…"). */
function withoutName(message: string, fileName: string): string {
  return message.startsWith(`${fileName}:`) ? message.slice(fileName.length + 1).trim() : message;
}

/** A 422 in the window's words: the file the service could not read, or its fields under the window's labels. */
function validationWords(item: Subject, errors: FieldErrors, subject: string): string {
  const { file, ...fields } = errors;
  if (file && isFileChange(item)) {
    const name = fileNameOf(item.path!);
    if (item.fileKind === 'image') {
      return `The service could not read ${name} as an image: is it a complete PNG or JPEG file? Save it again and it is sent again, or cancel to leave it out.`;
    }
    const why = file.map((message) => withoutName(message, name)).join('; ');
    return `The service did not accept ${name}: ${sentence(why)}`;
  }
  const described = describeLabelledFieldErrors(file ? errors : fields);
  return `The service refused ${subject}: ${sentence(described || 'it did not say why')}`;
}

/**
 * A refusal of the service (422, 400, 403, 413…) as a person reads it on the item and in the activity list: said once,
 * in the window's vocabulary, with no library text (such as an image decoder's "pngload: missing IHDR chunk"); the
 * service's own words go to the engine log.
 */
export function refusalWords(problem: Refusal, item: Subject, subject = subjectOf(item)): string {
  engineLog.warn('queue', `the service refused ${describeItem(item)} (${problem.kind}): ${problem.message}`);
  if (problem.kind === 'validation') return validationWords(item, problem.fieldErrors, subject);
  if (problem.kind === 'forbidden') return `You are not allowed to change the design of ${subject}: it is not yours, or no longer.`;
  if (problem.status === 413) return `${subject} is larger than the service accepts: make it smaller, or cancel to leave it out.`;
  if (problem.status === 415) return `The service does not take this type of file: ${subject} is not sent.`;
  return `The service refused ${subject}: ${sentence(problem.message)}`;
}
