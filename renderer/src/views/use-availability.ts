import { useIntl } from 'react-intl';
import { useAccount } from '../stores/account-store';
import { useSettings } from '../stores/settings-store';
import { useSync } from '../stores/sync-store';
import { availability, whyUnavailable, type Availability, type WindowAction, type WindowState } from './availability';

/**
 * The state availability.ts decides from, read from the stores the window already has: the account (signed in, out,
 * or needing a new sign-in), the service's address (settings, else the account), connectivity (its event, or the sync
 * view's state until one came), the window's own link to design-sync, and whether a sync folder is chosen.
 */
export function useWindowState(): WindowState {
  const account = useAccount((store) => store.account?.status ?? null);
  // Settings, once read, know a newly saved address before the account does (saving one tells no account change).
  const settingsUrl = useSettings((store) => (store.settings ? store.settings.serviceUrl : undefined));
  const accountUrl = useAccount((store) => (store.account ? store.account.serviceUrl : undefined));
  const serviceUrl = settingsUrl !== undefined ? settingsUrl : accountUrl;
  const connectivity = useSync((store) => store.connectivity?.online ?? null);
  const syncOffline = useSync((store) => (store.sync ? store.sync.state === 'offline' : null));
  const connection = useSync((store) => store.connection);
  const syncFolder = useSync((store) => (store.sync ? store.sync.folder !== null : null));
  return {
    account,
    serviceChosen: serviceUrl === undefined ? null : serviceUrl !== null,
    online: connectivity ?? (syncOffline === null ? null : !syncOffline),
    linked: connection !== 'lost',
    syncFolder,
  };
}

/**
 * `can(action)`: whether it runs now, or why not; `why(actions)`: one sentence per reason for those that cannot; both
 * in the window's language.
 */
export function useAvailability(): { can(action: WindowAction): Availability; why(actions: readonly WindowAction[]): string | null; state: WindowState } {
  const state = useWindowState();
  const intl = useIntl();
  return { state, can: (action) => availability(action, state, intl), why: (actions) => whyUnavailable(actions, state, intl) };
}
