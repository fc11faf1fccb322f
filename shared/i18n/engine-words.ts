import type { Words } from './create-intl';
import { ENGLISH, type MessageId } from './messages';

/**
 * Words the engine made where no language is known (an activity line, a queue item's reason), kept as facts: a message
 * id of the shared catalogs and its values, plain JSON stored beside the English text and sent to every front end,
 * which words them in the person's language (`engineWordsText`). A value is a name, a path, a count or the service's
 * own words (never translated), or words of their own (a reason inside a line), worded in the same language.
 */
export interface EngineWords {
  id: MessageId;
  values?: Record<string, EngineWordValue>;
}

export type EngineWordValue = string | number | EngineWords;

/** Deeper than any sentence the engine makes: a stored value nested further is not read (it is damaged or hostile). */
const MAX_DEPTH = 8;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Facts as stored or received, checked: an id the catalogs hold and values of the kinds above. Null for anything else
 * (a row a newer version wrote with an id this one lacks, a damaged row): the front end then shows the English text.
 */
export function readEngineWords(value: unknown, depth = 0): EngineWords | null {
  if (!isRecord(value) || depth > MAX_DEPTH) return null;
  const { id, values } = value;
  if (typeof id !== 'string' || !Object.hasOwn(ENGLISH, id)) return null;
  if (values === undefined) return { id: id as MessageId };
  if (!isRecord(values)) return null;
  const read: Record<string, EngineWordValue> = {};
  for (const [name, item] of Object.entries(values)) {
    if (typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item))) read[name] = item;
    else {
      const nested = readEngineWords(item, depth + 1);
      if (!nested) return null;
      read[name] = nested;
    }
  }
  return { id: id as MessageId, values: read };
}

/**
 * Stored facts (the JSON text of a `words` column), or null when there are none or they cannot be read; `damaged` is
 * told why when there is text that cannot be read (the row is then shown as its English text).
 */
export function parseEngineWords(text: string | null | undefined, damaged: (why: unknown) => void): EngineWords | null {
  if (text === null || text === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    damaged(error);
    return null;
  }
  const words = readEngineWords(value);
  if (!words) damaged(new Error(`not words this version knows: ${text.slice(0, 200)}`));
  return words;
}

/** The facts in `intl`'s language, nested words worded first. */
export function engineWordsText(intl: Pick<Words, 'formatMessage'>, words: EngineWords): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(words.values ?? {})) values[name] = typeof value === 'object' ? engineWordsText(intl, value) : value;
  return intl.formatMessage({ id: words.id }, values);
}

/** A line or reason in `intl`'s words when it has facts, else the English it was stored with. */
export function wordedOr(intl: Pick<Words, 'formatMessage'>, words: EngineWords | null | undefined, english: string): string;
export function wordedOr(intl: Pick<Words, 'formatMessage'>, words: EngineWords | null | undefined, english: string | null): string | null;
export function wordedOr(intl: Pick<Words, 'formatMessage'>, words: EngineWords | null | undefined, english: string | null): string | null {
  return words ? engineWordsText(intl, words) : english;
}
