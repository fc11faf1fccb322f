import { DEFAULT_LOCALE } from '../../shared/i18n/locales';
import { startLocale } from './i18n/start-locale';
import { routeOf } from './stores/routes';
import './styles.css';

// The window's first script is this small one: the window itself (React, the stores, the views) is a module of its
// own, fetched and run when started. Not preloaded: fetched and compiled as the page is parsed, it held back the paint
// of the host's first frame on a cold start (the browser's cache empty) by 30-50 ms.
const container = document.getElementById('root')!;
const start = () => void import('./start-window').then(({ startWindow }) => startWindow(container));

// `design-sync ui` drew the library's first frame into the page (shared/contract/first-frame.ts), in the language of
// the profile's setting (the page's `lang`). It is painted first: running the window before would hold that paint back
// by its script's start and React's first render. A page opened on another view (its address's #/…, which the host
// does not see) does not show the library meanwhile, nor does a window that starts in another language than the
// frame's (the system's languages as the window reads them differ from those the browser asked the host in).
const drawnByHost = container.firstElementChild !== null;
const frameLocale = document.documentElement.lang || DEFAULT_LOCALE;
if (drawnByHost && routeOf(location.hash).view === 'library' && startLocale() === frameLocale) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = start;
    channel.port2.postMessage(null);
  });
} else {
  if (drawnByHost) container.replaceChildren();
  start();
}
