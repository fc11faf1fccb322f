import { BROWSER_UPDATES_REASON, type UpdatesView } from '../../../../shared';
import type { Handlers } from '../handler-types';

/**
 * The engine's answer to the update requests: only where no desktop app answers them first (its main process does,
 * electron/shell/updates/), that is in a window served by `design-sync ui`, which has no updates of its own.
 */
function browserUpdatesView(): UpdatesView {
  return {
    state: 'unavailable', currentVersion: null, version: null, percent: null, reason: BROWSER_UPDATES_REASON,
    feed: null, channel: 'latest', lastCheckedAt: null, nextCheckAt: null,
  };
}

export const UPDATES_HANDLERS: Handlers<'updates.get' | 'updates.check' | 'updates.restart'> = {
  'updates.get': () => browserUpdatesView(),
  'updates.check': () => browserUpdatesView(),
  'updates.restart': () => browserUpdatesView(),
};
