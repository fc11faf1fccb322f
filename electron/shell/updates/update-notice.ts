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
 * Settings: a feed that is down is not worth interrupting anyone for.
 */
export function updateNotice(previous: UpdatesView | null, next: UpdatesView): UpdateNotice | null {
  if (next.state !== 'ready' || (previous?.state === 'ready' && previous.version === next.version)) return null;
  return {
    title: next.version ? `design-sync ${next.version} is ready` : 'A design-sync update is ready',
    body: 'It installs when you quit design-sync. To install it now, choose "Restart to update" in the tray.',
    route: '#/settings',
  };
}
