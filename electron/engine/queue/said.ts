import { ENGLISH_INTL } from '../../../shared/i18n/create-intl';
import { engineWordsText, parseEngineWords, type EngineWords, type EngineWordValue } from '../../../shared/i18n/engine-words';
import type { MessageId } from '../../../shared/i18n/messages';
import { engineLog } from '../log/engine-log';

/**
 * A sentence the engine says (an activity line, a queue item's reason): its facts, which the front ends word in the
 * person's language, and its English, for the log, `--json` and older front ends. `words` is null only for text that
 * is not ours to word (see `untranslated`).
 */
export interface Said {
  text: string;
  words: EngineWords | null;
}

/** A value of a sentence: a name, path or count, the service's words, or another sentence (worded in the same language). */
export type SaidValue = EngineWordValue | Said;

const isSaid = (value: SaidValue): value is Said => typeof value === 'object' && 'text' in value;

/** The sentence of catalog message `id` with `values`, as facts and in English. */
export function said(id: MessageId, values?: Record<string, SaidValue>): Said {
  const words: EngineWords = values === undefined ? { id } : { id, values: factsOf(values) };
  return { text: engineWordsText(ENGLISH_INTL, words), words };
}

function factsOf(values: Record<string, SaidValue>): Record<string, EngineWordValue> {
  const facts: Record<string, EngineWordValue> = {};
  for (const [name, value] of Object.entries(values)) {
    if (!isSaid(value)) facts[name] = value;
    // Text with no facts (the service's words…) goes in as it is.
    else facts[name] = value.words ?? value.text;
  }
  return facts;
}

/** Text that has no words of ours: the service's own message, a stopped sync's English detail. Shown as it is. */
export function untranslated(text: string): Said {
  return { text, words: null };
}

/** The rows whose damaged facts were said in the engine log already (a list read again and again says each once). */
const toldDamaged = new Set<string>();

/** The facts of a stored row (`words`, `reason_words`), or null; a damaged one is said in the engine log, once a process. */
export function storedWords(text: string | null, where: string): EngineWords | null {
  return parseEngineWords(text, (why) => {
    if (toldDamaged.has(where) || toldDamaged.size > 1000) return;
    toldDamaged.add(where);
    engineLog.warn('queue', `${where}: its stored words cannot be read, its English is shown`, why);
  });
}

/** The JSON stored for a sentence's facts (null when it has none). */
export function wordsColumn(line: Said | null | undefined): string | null {
  return line?.words ? JSON.stringify(line.words) : null;
}
