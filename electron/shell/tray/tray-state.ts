import type { AccountView, ConnectivityView, SyncView } from '../../../shared';
import { SYNC_STATE_LABELS, syncStateLabel } from '../../../shared/sync/sync-state-words';
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
const APP = 'design-sync';

/**
 * The tray's one state: the engine's sync status (its one owner decides the order: an error is never hidden), in the
 * same words as the window's status pill (SYNC_STATE_LABELS, and the view's reason made by syncReasonWords).
 */
export function trayView(sync: SyncView | null, account: AccountView | null = null, connectivity: ConnectivityView | null = null): TrayView {
  if (!sync) {
    // Before the engine has said anything about sync: what the account and the connection say.
    if (account?.status === 'signed-out' || account?.status === 'needs-sign-in') return view('signed-out', SYNC_STATE_LABELS['signed-out'], account.reason ?? 'Sign in to sync your designs.');
    if (connectivity && !connectivity.online) return view('offline', SYNC_STATE_LABELS.offline, connectivity.reason);
    return view('not-set-up', 'Starting', null);
  }
  // Sending files: how far along, rather than how many changes are left ("Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left").
  return view(TRAY_STATE_OF[sync.state], syncStateLabel(sync), syncUploadWords(sync) ?? sync.reason);
}

const TRAY_STATE_OF: Record<SyncView['state'], TrayState> = {
  'not-set-up': 'not-set-up', 'up-to-date': 'up-to-date', syncing: 'syncing', paused: 'paused', attention: 'needs-attention',
  offline: 'offline', 'signed-out': 'signed-out', error: 'error',
};

function view(state: TrayState, label: string, reason: string | null): TrayView {
  return { state, label, tooltip: tooltip(`${APP}: ${label}${reason ? ` — ${reason}` : ''}`), iconName: `tray-${state}` };
}

function tooltip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TOOLTIP_LIMIT ? flat : `${flat.slice(0, TOOLTIP_LIMIT - 1).trimEnd()}…`;
}
