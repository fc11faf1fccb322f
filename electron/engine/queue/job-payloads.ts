import { z } from 'zod';
import type { QueueKind } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { describeItem } from './describe-item';
import type { QueueItem } from './queue-item';
import type { QueueStore } from './queue-store';

/**
 * What each kind of queue item carries in its payload, checked before its job runs (as Signal's JobQueue parses a
 * job's data first). A row another version of design-sync wrote, or a damaged one, fails alone with words naming
 * the kind and the field; it never reaches a job as a TypeError, and never holds up the rest of the queue.
 * Unknown fields are kept (a newer version may add some); known ones must have their type.
 */

const text = z.string();
const when = z.union([z.number(), z.string()]).nullable();

/** What the person says to an item waiting for them (QueueStore.confirm sets it). */
const confirmation = { confirmed: z.boolean().optional() };
/** A person cancelled this change of a file after it failed or was refused: the same version is not queued again. */
const dismissal = { dismissed: z.boolean().optional() };

export const UPLOAD_PAYLOAD = z.looseObject({
  /** The name the service gives the record (the file name, NFC). */
  name: text.optional(),
  /** A conflicted copy kept beside the service's version of this path (remote pass). */
  conflictOf: text.optional(),
  localChangedAt: when.optional(),
  remoteChangedAt: when.optional(),
  ...confirmation,
  ...dismissal,
});

export const REPLACE_PAYLOAD = z.looseObject({ ...confirmation, ...dismissal });

export const RENAME_PAYLOAD = z.looseObject({
  fromPath: text.min(1),
  newName: text.min(1),
});

export const DELETE_REMOTE_PAYLOAD = z.looseObject({ ...confirmation });

export const CREATE_DESIGN_PAYLOAD = z.looseObject({
  name: text.optional(),
  excerpt: text.optional(),
  license: text.nullable().optional(),
  description: text.optional(),
  publish: z.boolean().optional(),
  /** The design already made by an earlier attempt: it is never created twice. */
  createdDesignId: z.number().int().positive().optional(),
  ...confirmation,
});

export const DESIGN_EDIT_FIELDS = z.looseObject({
  name: text.optional(),
  excerpt: text.optional(),
  license: text.optional(),
  description: text.optional(),
  primary_image_id: z.number().int().positive().nullable().optional(),
});

export const UPDATE_DESIGN_PAYLOAD = z.looseObject({
  fields: DESIGN_EDIT_FIELDS,
  designName: text,
  /** The design as the service held it once the edit was sent (for the cache). */
  answer: z.unknown().optional(),
});

export const PAYLOADS = {
  upload: UPLOAD_PAYLOAD,
  replace: REPLACE_PAYLOAD,
  rename: RENAME_PAYLOAD,
  'delete-remote': DELETE_REMOTE_PAYLOAD,
  'create-design': CREATE_DESIGN_PAYLOAD,
  'update-design': UPDATE_DESIGN_PAYLOAD,
} as const satisfies Record<QueueKind, z.ZodType>;

export type PayloadOf<K extends QueueKind> = z.infer<(typeof PAYLOADS)[K]>;
export type UploadPayload = PayloadOf<'upload'>;
export type RenamePayload = PayloadOf<'rename'>;
export type CreateDesignPayload = PayloadOf<'create-design'>;
export type DesignEditFields = z.infer<typeof DESIGN_EDIT_FIELDS>;
export type DesignEditPayload = PayloadOf<'update-design'>;

/** The columns of the row each kind needs besides its payload. */
const NEEDED_COLUMNS: Record<QueueKind, readonly ('path' | 'fileKind' | 'folder' | 'designId')[]> = {
  upload: ['path', 'fileKind'],
  replace: ['path', 'fileKind'],
  rename: ['path', 'fileKind'],
  'delete-remote': ['path', 'fileKind'],
  'create-design': ['folder'],
  'update-design': ['designId'],
};

const COLUMN_NAMES = { path: 'path', fileKind: 'file_kind', folder: 'folder', designId: 'design_id' } as const;

/** A queue item whose payload was checked against its kind's schema: what a job runs on. */
export type JobItem<K extends QueueKind = QueueKind> = Omit<QueueItem, 'kind' | 'payload'> & { kind: K; payload: PayloadOf<K> };

export type ReadItem = { ok: true; item: JobItem } | { ok: false; field: string; problem: string };

const EXPECTED: Record<string, string> = { string: 'text', number: 'a number', boolean: 'true or false', object: 'a set of fields', int: 'a whole number' };

/** The value at a zod issue's path. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/** One zod issue in words: "missing", "text expected, found a number", "empty". */
function issueWords(issue: z.core.$ZodIssue, payload: unknown): string {
  if (issue.code === 'invalid_type') {
    const received = valueAt(payload, issue.path);
    if (received === undefined) return 'missing';
    const found = received === null ? 'nothing (null)' : Array.isArray(received) ? 'a list' : (EXPECTED[typeof received] ?? typeof received);
    return `${EXPECTED[issue.expected] ?? issue.expected} expected, found ${found}`;
  }
  if (issue.code === 'too_small') return 'empty';
  return issue.message;
}

/** Checks an item's payload and the columns its kind needs, before its job runs. */
export function readJobItem(item: QueueItem): ReadItem {
  const schema = PAYLOADS[item.kind] as z.ZodType | undefined;
  if (!schema) return { ok: false, field: 'kind', problem: `"${String(item.kind)}" is not a kind of change this version knows` };
  if (item.payloadProblem) return { ok: false, field: 'payload', problem: item.payloadProblem };
  for (const column of NEEDED_COLUMNS[item.kind]) {
    if (item[column] === null || item[column] === undefined || item[column] === '') return { ok: false, field: COLUMN_NAMES[column], problem: 'missing' };
  }
  const parsed = schema.safeParse(item.payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'payload';
    return { ok: false, field, problem: issueWords(issue, item.payload) };
  }
  return { ok: true, item: { ...item, payload: parsed.data } as JobItem };
}

/** The words of a damaged item: which kind, which field, what to do. */
export function damagedItemReason(subject: string, kind: QueueKind, field: string, problem: string): string {
  return `${subject} cannot be sent: its entry in the queue is damaged or was written by another version of design-sync ` +
    `(the ${kind} item's field "${field}": ${problem}). Cancel it and make the change again.`;
}

/** A payload that does not parse fails its item alone, in words; the detail goes to the engine log. */
export function failDamagedItem(store: QueueStore, item: QueueItem, field: string, problem: string): void {
  const reason = damagedItemReason(describeItem(item), item.kind, field, problem);
  engineLog.warn('queue', `queue item ${item.id} (${item.kind}) cannot be read: field "${field}": ${problem}; payload ${JSON.stringify(item.payload)}`);
  if (store.settle(item.id, { state: 'failed', reason })) store.log('error', reason, item.path ?? item.folder);
}

/** The item as stored now, read again as its kind (a job may have changed it); the one in hand if that fails. */
export function rereadJobItem(store: QueueStore, item: JobItem): JobItem {
  const again = store.get(item.id);
  const read = again ? readJobItem(again) : null;
  return read?.ok ? read.item : item;
}
