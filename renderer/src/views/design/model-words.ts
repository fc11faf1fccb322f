import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { ENGLISH, type MessageId } from '../../../../shared/i18n/messages';

/** A message of the model readers: why a file cannot be shown, or what of it the view does not show. */
export type ModelWordId = Extract<MessageId, `design.model.${string}`>;

/**
 * Words of the model readers as a message and its values, not a sentence: the readers run in the model worker, which
 * knows no language; the view says them in the window's (`intl.formatMessage(words, words.values)`). Plain data, so it
 * crosses from the worker as it is. The values are the file's own (part names, ids, units) or numbers.
 */
export interface ModelWords {
  id: ModelWordId;
  values?: Record<string, string | number>;
}

let english: IntlShape | null = null;

/**
 * English, made here from its catalog alone (shared/i18n/create-intl.ts would bring the loading of every language
 * into the model worker): for an error's message, what the engine is told of a model that cannot be drawn and logs.
 */
export function englishIntl(): IntlShape {
  english ??= createIntl({ locale: 'en-GB', messages: ENGLISH }, createIntlCache());
  return english;
}

/** The words in English, for logs and the engine (never shown in the window, which says them in its language). */
export function englishModelWords(words: ModelWords): string {
  return englishIntl().formatMessage({ id: words.id }, words.values);
}

/** What is needed of an intl: react-intl's `useIntl()` or @formatjs/intl's. */
type Words = Pick<IntlShape, 'formatMessage'>;

/** The words in the window's language. */
export function modelWords(intl: Words, words: ModelWords): string {
  return intl.formatMessage({ id: words.id }, words.values);
}

/** What a file holds that the view does not show: each said once, in the order found. */
export class ModelNotes {
  private readonly byKey = new Map<string, ModelWords>();

  add(id: ModelWordId, values?: Record<string, string | number>): void {
    const words: ModelWords = values ? { id, values } : { id };
    const key = JSON.stringify(words);
    if (!this.byKey.has(key)) this.byKey.set(key, words);
  }

  list(): ModelWords[] {
    return [...this.byKey.values()];
  }
}
