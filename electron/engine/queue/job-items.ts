import type { z } from 'zod';
import type { QueueKind } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { describeItem } from './describe-item';
import { PAYLOADS, type PayloadOf } from './job-payloads';
import type { QueueItem } from './queue-item';
import type { QueueStore } from './queue-store';
import { said, type Said } from './said';

/**
 * A queue item read as its kind before its job runs: its payload checked against its kind's schema (job-payloads.ts)
 * and the columns its kind needs present; an item that fails is failed alone, in words.
 */

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
export function damagedItemReason(subject: Said, kind: QueueKind, field: string, problem: string): Said {
  return said('queue.reason.damagedItem', { item: subject, kind, field, problem });
}

/** A payload that does not parse fails its item alone, in words; the detail goes to the engine log. */
export function failDamagedItem(store: Pick<QueueStore, 'settle' | 'log'>, item: QueueItem, field: string, problem: string): void {
  const reason = damagedItemReason(describeItem(item), item.kind, field, problem);
  engineLog.warn('queue', `queue item ${item.id} (${item.kind}) cannot be read: field "${field}": ${problem}; payload ${JSON.stringify(item.payload)}`);
  if (store.settle(item.id, { state: 'failed', reason })) store.log('error', reason, item.path ?? item.folder);
}

/** The item as stored now, read again as its kind (a job may have changed it); the one in hand if that fails. */
export function rereadJobItem(store: Pick<QueueStore, 'get'>, item: JobItem): JobItem {
  const again = store.get(item.id);
  const read = again ? readJobItem(again) : null;
  return read?.ok ? read.item : item;
}
