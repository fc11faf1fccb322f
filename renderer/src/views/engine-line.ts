import type { EngineWords } from '../../../shared/i18n/engine-words';
import { engineWordsText } from '../../../shared/i18n/engine-words';
import type { Words } from '../../../shared/i18n/create-intl';
import { windowWords } from './problem-words';

/**
 * An activity line or a queue item's reason in the window's language: worded from its facts (the message id and values
 * the engine stored), or, for a line that has none (written before they were kept, or text that is not ours), its
 * English as the engine wrote it.
 */
export function engineLine(intl: Pick<Words, 'formatMessage'>, words: EngineWords | null | undefined, english: string): string;
export function engineLine(intl: Pick<Words, 'formatMessage'>, words: EngineWords | null | undefined, english: string | null): string | null;
export function engineLine(intl: Pick<Words, 'formatMessage'>, words: EngineWords | null | undefined, english: string | null): string | null {
  return words ? engineWordsText(intl, words) : windowWords(english);
}
