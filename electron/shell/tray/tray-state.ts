import type { AccountView, ConnectivityView, SyncView } from '../../../shared';
import { SYNC_STATE_LABELS, syncStateLabel } from '../../../shared/sync/sync-state-words';

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
 * The tray's one state, from what the window shows (the same words as its status pill). An error is never hidden:
 * an error of sync beats everything; then what only the person can do (sign in, confirm…); then signed out, offline,
 * and sync's own state.
 */
export function trayView(sync: SyncView | null, account: AccountView | null = null, connectivity: ConnectivityView | null = null): TrayView {
  if (sync?.state === 'error') return view('error', syncStateLabel(sync), sync.reason);
  if (account?.status === 'needs-sign-in') return view('needs-attention', SYNC_STATE_LABELS.attention, account.reason ?? 'Sign in again to go on syncing.');
  if (sync?.state === 'attention') return view('needs-attention', syncStateLabel(sync), sync.reason);
  if (account?.status === 'signed-out') return view('signed-out', 'Signed out', 'Sign in to sync your designs.');
  if (sync?.state === 'offline') return view('offline', syncStateLabel(sync), sync.reason ?? connectivity?.reason ?? null);
  if (connectivity && !connectivity.online) return view('offline', SYNC_STATE_LABELS.offline, connectivity.reason);
  if (!sync) return view('not-set-up', 'Starting', null);
  return view(sync.state, syncStateLabel(sync), sync.reason);
}

function view(state: TrayState, label: string, reason: string | null): TrayView {
  return { state, label, tooltip: tooltip(`${APP}: ${label}${reason ? ` — ${reason}` : ''}`), iconName: `tray-${state}` };
}

function tooltip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TOOLTIP_LIMIT ? flat : `${flat.slice(0, TOOLTIP_LIMIT - 1).trimEnd()}…`;
}
