import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import type { UpdatesView } from '../../../shared/updates/updates-view';

/** A native notification about updates: its words, and the window's route a click opens. */
export interface UpdateNotice {
  title: string;
  body: string;
  route: '#/settings';
}

/**
 * What the person is told of an update without opening the app: once, when a verified update becomes ready (it would
 * otherwise install unannounced at the next quit). Checks, downloads and failures stay in the tray, the menus and
 * Settings: a feed that is down is not worth interrupting anyone for. In the locale of `intl` (English by default), naming
 * the tray's item in its own words.
 */
export function updateNotice(previous: UpdatesView | null, next: UpdatesView, intl: Words = ENGLISH_INTL): UpdateNotice | null {
  if (next.state !== 'ready' || (previous?.state === 'ready' && previous.version === next.version)) return null;
  const restart = next.version ? intl.formatMessage({ id: 'tray.menu.restartToUpdate' }, { version: next.version }) : intl.formatMessage({ id: 'tray.menu.restartToUpdateNew' });
  return {
    title: next.version ? intl.formatMessage({ id: 'notifications.update.readyTitle' }, { version: next.version }) : intl.formatMessage({ id: 'notifications.update.readyTitleNew' }),
    body: intl.formatMessage({ id: 'notifications.update.readyBody' }, { restart }),
    route: '#/settings',
  };
}
