import { z } from 'zod';
import { UnreadableAnswer } from './answer-body';
import { findList } from './tolerant-readers';

/**
 * What a list answer must hold for the client to use it: a list (a bare array, or an object holding one: see
 * tolerant-readers.ts extractList) of objects with an integer id, and the fields people see of the right type when
 * present. Anything else is the service's fault, said precisely (which part, how many items, which field), rather
 * than read as an empty list: a pull that "inserted 0" and a search that finds nothing would hide it.
 */

export type ListKind = 'designs' | 'users' | 'images' | 'documents';

const wholeNumber = z.number().int();
const text = z.string().nullish();

const ITEM_SCHEMAS: Record<ListKind, z.ZodType> = {
  designs: z.looseObject({ id: wholeNumber, name: text }),
  users: z.looseObject({ id: wholeNumber, screen_name: text }),
  images: z.looseObject({ id: wholeNumber, name: text }),
  documents: z.looseObject({ id: wholeNumber, name: text }),
};

/**
 * The field besides the id that each kind's schema checks: an item whose id is a safe integer and whose field is text
 * or absent is what the schema accepts, checked without it (zod's loose object walks every other key of the item:
 * about 4 µs a design, a tenth of a pull's client CPU). Any other item goes through the schema, which decides and
 * explains.
 */
const TEXT_FIELD: Record<ListKind, string> = { designs: 'name', users: 'screen_name', images: 'name', documents: 'name' };

function plainlyReadable(item: unknown, kind: ListKind): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const { id, [TEXT_FIELD[kind]]: text } = item as Record<string, unknown>;
  return Number.isSafeInteger(id) && (text === undefined || text === null || typeof text === 'string');
}

const NOUNS: Record<ListKind, string> = { designs: 'designs', users: 'users', images: 'images', documents: 'documents' };

const EXPECTED: Record<string, string> = { id: 'a whole number', name: 'text', screen_name: 'text' };


/** Which kind of list a path answers with. */
export function listKindOf(path: string): ListKind {
  if (/\/images\/?$/.test(path)) return 'images';
  if (/\/documents\/?$/.test(path)) return 'documents';
  if (/^\/v1\/users(\/[^/]+\/users)?\/?$/.test(path)) return 'users';
  return 'designs';
}

/** A value as a message shows it: short, and saying its type. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)} (text)`;
  return `${String(value)} (a ${typeof value})`;
}

function shapeOf(body: unknown): string {
  if (body === undefined) return 'empty';
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''} and no single list in it`;
  }
  return describeValue(body);
}

const ADVICE = 'try again later, or tell the service\'s maintainers';

interface Finding {
  count: number;
  example: string;
}

/** What is wrong with the items that cannot be read, grouped by field: "id: 2 items (item 1 has "x" …)". */
function findings(items: unknown[], schema: z.ZodType): { bad: number; byField: Map<string, Finding> } {
  const byField = new Map<string, Finding>();
  let bad = 0;
  items.forEach((item, index) => {
    const result = schema.safeParse(item);
    if (result.success) return;
    bad++;
    const fields = new Set<string>();
    for (const issue of result.error.issues) {
      const field = issue.path.length === 0 ? '' : String(issue.path[0]);
      if (fields.has(field)) continue;
      fields.add(field);
      const found = byField.get(field) ?? { count: 0, example: '' };
      if (found.count === 0) {
        found.example = field === ''
          ? `item ${index + 1} is ${describeValue(item)}`
          : `item ${index + 1} has ${describeValue((item as Record<string, unknown>)[field])} where ${EXPECTED[field] ?? 'another type'} was expected`;
      }
      found.count++;
      byField.set(field, found);
    }
  });
  return { bad, byField };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The items of a list answer; UnreadableAnswer when it holds no list, or when some of its items are not objects with
 * an integer id (or have a field people see of another type). `where` names the request ("GET /v1/designs, page 2").
 */
export function readListAnswer(body: unknown, kind: ListKind, where: string): unknown[] {
  const items = findList(body);
  if (items === null) {
    throw new UnreadableAnswer(`The service's answer to ${where} was not understood: a list of ${NOUNS[kind]} was expected, and it is ${shapeOf(body)}; ${ADVICE}.`);
  }
  if (items.every((item) => plainlyReadable(item, kind))) return items;
  const { bad, byField } = findings(items, ITEM_SCHEMAS[kind]);
  if (bad === 0) return items;
  const parts = [...byField].map(([field, found]) =>
    `${field === '' ? 'not an object' : `${field}`}: ${plural(found.count, 'item')} (${found.example})`);
  throw new UnreadableAnswer(
    `The service's answer to ${where} was not understood: ${bad} of ${plural(items.length, 'item')} cannot be read as ${NOUNS[kind]} — ${parts.join('; ')}; ${ADVICE}.`,
  );
}

const signedInUser = z.looseObject({ id: wholeNumber, screen_name: z.string() });

/** The answer to whoami: an object with an integer id and a screen_name; UnreadableAnswer otherwise. */
export function readUserAnswer(body: unknown, where: string): Record<string, unknown> {
  const { bad, byField } = findings([body], signedInUser);
  if (bad === 0) return body as Record<string, unknown>;
  const parts = [...byField].map(([field, found]) => (field === '' ? `it is ${shapeOf(body)}` : found.example.replace(/^item 1 has/, `${field} is`)));
  throw new UnreadableAnswer(`The service's answer to ${where} was not understood: a user was expected, and ${parts.join('; ')}; ${ADVICE}.`);
}
