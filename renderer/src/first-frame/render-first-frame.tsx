import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { FirstFrameRenderer, FirstFrameWords, LibraryPage } from '../../../shared';
import { FIRST_LIBRARY_PAGE, requestKey, type PreloadedAnswer } from '../../../shared/contract/preloaded-answers';
import { WindowIntl } from '../i18n/WindowIntl';
import { useLanguage } from '../stores/language-store';
import { stateWithFirstPage, useLibrary } from '../stores/library-store';
import { App } from '../views/shell/App';

const FIRST_PAGE_KEY = requestKey('library.page', FIRST_LIBRARY_PAGE);

/**
 * The window's first frame (shared/contract/first-frame.ts): the App, as its first render shows the library once the
 * first page came, rendered to markup in the window host. Built by renderer-first-frame.vite.config.ts, which puts a
 * contract that asks nothing (server-contract.ts) and a store hook that reads the current state
 * (zustand-on-server.ts) in place of the window's own. It is drawn in the words the host gives (the person's language,
 * English when none are given); a window that starts in another language does not show it (main.tsx).
 */
export const renderFirstFrame: FirstFrameRenderer['renderFirstFrame'] = (answers: readonly PreloadedAnswer[], words?: FirstFrameWords) => {
  const outcome = answers.find((answer) => requestKey(answer.name, answer.input) === FIRST_PAGE_KEY)?.outcome;
  const firstPage = outcome?.ok ? (outcome.value as LibraryPage) : null;
  // No designs, no frame: there are no cards to show sooner, and a first run's window opens on the welcome instead.
  if (!firstPage || firstPage.total === 0) return null;
  useLibrary.setState(stateWithFirstPage(firstPage));
  if (words) useLanguage.setState({ locale: words.locale, messages: words.messages });
  try {
    return renderToStaticMarkup(<StrictMode><WindowIntl><App /></WindowIntl></StrictMode>);
  } finally {
    useLibrary.setState(useLibrary.getInitialState(), true);
    useLanguage.setState(useLanguage.getInitialState(), true);
  }
};
