import { ENGLISH_INTL } from './create-intl';
import { engineWordsText, readEngineWords, type EngineWords } from './engine-words';

/** A sentence of ours (its facts) in English: for the log, `--json`, and what takes only text. */
export function englishOf(words: EngineWords): string {
  return engineWordsText(ENGLISH_INTL, words);
}

/**
 * An error whose message is a sentence of ours: its facts (`words`) kept beside its English message, so that whoever
 * shows it to a person words it in their language (engineWordsText), and the log keeps the English.
 */
export class WordedError extends Error {
  constructor(readonly words: EngineWords) {
    super(englishOf(words));
    this.name = 'WordedError';
  }
}

/** The facts of an error that has them (a WordedError, or another error given `words`), else null. */
export function errorWords(error: unknown): EngineWords | null {
  if (!(error instanceof Error) || !('words' in error)) return null;
  return readEngineWords((error as { words: unknown }).words);
}
