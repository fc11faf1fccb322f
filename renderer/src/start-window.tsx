import { StrictMode, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { WindowIntl } from './i18n/WindowIntl';
import { startLanguage } from './stores/language-store';
import { askFirstPageBeforeRender } from './stores/library-store';
import { useNavigation } from './stores/navigation-store';
import { installSearchShortcut } from './views/library/search-shortcut';
import { App } from './views/shell/App';

/** Makes the root live (not inert) in the commit that puts the window in it, as the host's frame leaves. */
function LiveRoot({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useLayoutEffect(() => container.removeAttribute('inert'), [container]);
  return children;
}

/**
 * The window: its stores, the search shortcut, and React's render into the page's root. A frame the window host drew
 * there (shared/contract/first-frame.ts) is replaced in React's first commit, which also makes the root live: no frame
 * shows the root empty, or the window's own controls still inert.
 */
export async function startWindow(container: HTMLElement): Promise<void> {
  if (useNavigation.getState().route.view === 'library') askFirstPageBeforeRender();
  installSearchShortcut();
  // In the person's language from the first render: a language other than English has its catalog fetched first.
  await startLanguage();
  createRoot(container).render(
    <StrictMode>
      <WindowIntl>
        <LiveRoot container={container}>
          <App />
        </LiveRoot>
      </WindowIntl>
    </StrictMode>,
  );
}
