import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { askFirstPageBeforeRender } from './stores/library-store';
import { useNavigation } from './stores/navigation-store';
import { installSearchShortcut } from './views/library/search-shortcut';
import { App } from './views/shell/App';
import './styles.css';

if (useNavigation.getState().route.view === 'library') askFirstPageBeforeRender();
installSearchShortcut();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
