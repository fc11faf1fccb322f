import type { AccountView, ConnectivityView, SyncView } from '../../../shared';
import { accountReasonWords } from '../../../shared/account/account-reason-words';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { connectivityWords, syncReasonWords, syncStateLabel, syncStateName } from '../../../shared/sync/sync-state-words';
import { syncUploadWords } from '../../../shared/sync/upload-progress-words';

export const TRAY_STATES = ['up-to-date', 'syncing', 'paused', 'offline', 'needs-attention', 'error', 'signed-out', 'not-set-up'] as const;
export type TrayState = (typeof TRAY_STATES)[number];

export interface TrayView {
  state: TrayState;
  /** The state in the window's own words ("Syncing 42%"): the first line of the tray menu. */
  label: string;
  /** What the state means and what to do, at most 127 characters (Windows' limit for a tray tooltip). */
  tooltip: string;
  /** `tray-<state>`: the PNG in electron/shell/tray/icons (with its @2x twin). */
  iconName: `tray-${TrayState}`;
}

const TOOLTIP_LIMIT = 127;

/**
 * The tray's one state: the engine's sync status (its one owner decides the order: an error is never hidden), in the
 * same words as the window's status pill (syncStateLabel, and the reason made by syncReasonWords from its code and facts), in
 the locale of `intl` (English by default).
 */
export function trayView(sync: SyncView | null, account: AccountView | null = null, connectivity: ConnectivityView | null = null, intl: Words = ENGLISH_INTL): TrayView {
  if (!sync) {
    // Before the engine has said anything about sync: what the account and the connection say (a refused sign-in in
    // the words the window uses for it, from its code).
    if (account?.status === 'needs-sign-in') return view('signed-out', syncStateName('signed-out', intl), accountReasonWords(account, intl) ?? intl.formatMessage({ id: 'tray.signIn' }), intl);
    if (account?.status === 'signed-out') return view('signed-out', syncStateName('signed-out', intl), intl.formatMessage({ id: 'tray.signIn' }), intl);
    // Offline: said in the shell's language from the service's address (the connection's `reason` is its English).
    if (connectivity && !connectivity.online) return view('offline', syncStateName('offline', intl), connectivityWords(account?.serviceUrl ?? null, intl), intl);
    return view('not-set-up', intl.formatMessage({ id: 'tray.starting' }), null, intl);
  }
  // Sending files: how far along, rather than how many changes are left ("Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left").
  return view(TRAY_STATE_OF[sync.state], syncStateLabel(sync, intl), syncUploadWords(sync, intl) ?? syncReasonWords(sync, intl) ?? sync.reason, intl);
}

const TRAY_STATE_OF: Record<SyncView['state'], TrayState> = {
  'not-set-up': 'not-set-up', 'up-to-date': 'up-to-date', syncing: 'syncing', paused: 'paused', attention: 'needs-attention',
  offline: 'offline', 'signed-out': 'signed-out', error: 'error',
};

function view(state: TrayState, label: string, reason: string | null, intl: Words): TrayView {
  const words = reason ? intl.formatMessage({ id: 'tray.tooltip.stateReason' }, { state: label, reason }) : intl.formatMessage({ id: 'tray.tooltip.state' }, { state: label });
  return { state, label, tooltip: tooltip(words), iconName: `tray-${state}` };
}

function tooltip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TOOLTIP_LIMIT ? flat : `${flat.slice(0, TOOLTIP_LIMIT - 1).trimEnd()}…`;
}
