import type Database from 'better-sqlite3';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { engineLog } from '../log/engine-log';
import { FORM_DICTIONARY_1 } from './form-dictionary';

/**
 * How a design's stored forms (designs.list_json, designs.user_form_json) are kept: the text the service sent,
 * compressed (raw DEFLATE) against a fixed dictionary of the service's field names, as a BLOB whose first byte names
 * the dictionary. A list form of about 880 bytes takes about 310, so four rows or more fit a page of the table instead
 * of three. Rows written before (migration 0022) hold the text itself and are read as they are until next written.
 * The form comes back byte for byte as the service sent it.
 */

/** The first byte of a compressed form: which dictionary it was compressed against. */
const DICTIONARY_1 = 1;
const DICTIONARIES: ReadonlyMap<number, Buffer> = new Map([[DICTIONARY_1, Buffer.from(FORM_DICTIONARY_1, 'utf8')]]);

/**
 * A 4 KiB window (the dictionary and a form of a few KiB fit it) and little memory: zlib then sets up much less per
 * call (about 27 µs of CPU a list form, against about 36 µs with its defaults, at a load of 11 on 2 cores).
 */
const DEFLATE_OPTIONS = { level: 6, windowBits: 12, memLevel: 3 } as const;

/** A stored form as the database keeps it: either the text (rows written before) or the compressed BLOB. */
export type StoredForm = string | Uint8Array;

/** The form's text as stored now: its compressed bytes, after the dictionary's byte. */
export function packForm(text: string): Buffer {
  const dictionary = DICTIONARIES.get(DICTIONARY_1)!;
  const packed = deflateRawSync(text, { ...DEFLATE_OPTIONS, dictionary });
  const stored = Buffer.allocUnsafe(packed.length + 1);
  stored[0] = DICTIONARY_1;
  packed.copy(stored, 1);
  return stored;
}

export class UnreadableStoredFormError extends Error {
  constructor(reason: string) {
    super(`a design's stored form cannot be read: ${reason}`);
    this.name = 'UnreadableStoredFormError';
  }
}

/** A stored form's text, exactly as the service sent it (text as stored before, or a compressed BLOB). */
export function unpackForm(stored: StoredForm): string {
  if (typeof stored === 'string') return stored;
  const dictionary = DICTIONARIES.get(stored[0] ?? -1);
  if (!dictionary) {
    throw new UnreadableStoredFormError(stored.length === 0 ? 'it is empty' : `it names dictionary ${stored[0]}, which this version of design-sync does not know`);
  }
  try {
    return inflateRawSync(stored.subarray(1), { dictionary }).toString('utf8');
  } catch (error) {
    throw new UnreadableStoredFormError(`its compressed bytes are damaged (${(error as Error).message})`);
  }
}

/** A stored form's text, or null when none is stored or it cannot be read (logged: the design then shows without it). */
export function storedFormText(stored: StoredForm | null | undefined): string | null {
  if (stored === null || stored === undefined) return null;
  try {
    return unpackForm(stored);
  } catch (error) {
    engineLog.warn('cache', 'a stored design form is not readable (the design is shown without it)', error);
    return null;
  }
}

/**
 * SQL's `form_text(column)`: a stored form's text (NULL when none or unreadable), so that SQL reading a form's fields
 * with json_extract reads it whether stored as text or compressed. Every connection to the cache database has it
 * (cache-database.ts, the count thread).
 */
export function addFormFunctions(db: Database.Database): void {
  db.function('form_text', { deterministic: true }, (stored: unknown) =>
    (typeof stored === 'string' || stored instanceof Uint8Array ? storedFormText(stored) : null));
}
