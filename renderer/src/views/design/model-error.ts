import { englishModelWords, type ModelWordId, type ModelWords } from './model-words';

/**
 * Why a file cannot be shown, as words for the person (`words`, said in the window's language; the page names the
 * file); its message is the same in English, for logs and the engine.
 */
export class UnreadableModelError extends Error {
  override name = 'UnreadableModelError';
  readonly words: ModelWords;

  constructor(id: ModelWordId, values?: Record<string, string | number>) {
    const words: ModelWords = values ? { id, values } : { id };
    super(englishModelWords(words));
    this.words = words;
  }
}

/** A loader's own failure, in the person's words. */
export function unreadable(error: unknown): UnreadableModelError {
  if (error instanceof UnreadableModelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // The loader's own words (English, as three.js says them) for what it could not read.
  return new UnreadableModelError('design.model.error.loaderFailed', { why: message.replace(/^THREE\.\w+:\s*/, '').replace(/\.$/, '') });
}
