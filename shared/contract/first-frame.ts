import type { LanguageSetting, Locale } from '../i18n/locales';
import type { Catalog } from '../i18n/messages';
import type { PreloadedAnswer } from './preloaded-answers';

/**
 * The window's first frame, drawn by `design-sync ui` into the page it serves: the markup React renders for the
 * library's first screen from the answers handed over with the page, so that the first cards are painted as the HTML
 * is parsed, before the window's script has run. The window's script then renders over it.
 *
 * The window's build makes it (renderer/src/first-frame/) into a module beside the built window:
 * `<build>/first-frame/render-first-frame.mjs` next to `<build>/renderer/`.
 */
export interface FirstFrameRenderer {
  /**
   * The markup for the page's root element, or null when the answers do not hold the library's first page, or it is
   * empty; in the words given (English when none are).
   */
  renderFirstFrame(answers: readonly PreloadedAnswer[], words?: FirstFrameWords): string | null;
}

/** The language a page is drawn in: the locale and its catalog. */
export interface FirstFrameWords {
  locale: Locale;
  messages: Catalog;
}

/**
 * The language setting the host read from the profile as it made the page, written on its `<html>` element (beside
 * `lang`, the locale the page is in): the window starts in it before the engine has answered, so that its first render
 * is in the person's language, and keeps the host's frame only when it starts in the frame's locale.
 */
export const PAGE_LANGUAGE_SETTING_ATTRIBUTE = 'data-language-setting';

/** What the host read of the language for a page: the setting, and the locale it gives for the browser asking. */
export interface PageLanguage {
  setting: LanguageSetting;
  locale: Locale;
}

export const FIRST_FRAME_FOLDER = 'first-frame';
export const FIRST_FRAME_FILE = 'render-first-frame.mjs';
