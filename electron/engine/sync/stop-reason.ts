import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';

/**
 * Why sync stops: its English (`reason`: the log, the stored run state, the CLI's --json) and its facts (`words`),
 * which every front end words in the person's language. A failed RootCheck is one.
 */
export interface StopReason {
  reason: string;
  words: EngineWords | null;
}

/** The stop of catalog message `words.id`, with its English. */
export function stopSaying(words: EngineWords): StopReason {
  return { reason: englishOf(words), words };
}

/** A stop given as English alone (no facts) or as a StopReason. */
export function stopOf(stop: StopReason | string): StopReason {
  return typeof stop === 'string' ? { reason: stop, words: null } : { reason: stop.reason, words: stop.words };
}
