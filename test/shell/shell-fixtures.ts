import type { AccountView, ConnectivityView, QueueEntry, SyncView } from '../../shared';

export function syncView(overrides: Partial<SyncView> = {}): SyncView {
  return {
    state: 'up-to-date', reasonCode: 'in-step', reason: null, serviceUrl: 'https://designs.example', until: null, detail: null, runState: 'idle', folder: '/home/ada/Designs', running: true, queuePaused: false, lastScanAt: null,
    counts: { waiting: 0, running: 0, done: 0, failed: 0, attention: 0, cancelled: 0 }, bytesSent: 0, bytesTotal: 0,
    contentPolicyAccepted: true, watcherWarning: null, heldBack: [],
    ...overrides,
  };
}

export function accountView(overrides: Partial<AccountView> = {}): AccountView {
  return {
    status: 'signed-in', user: { id: 1, screenName: 'ada', realName: null, avatarUrl: null }, reason: null, reasonCode: null, serviceUrl: 'https://designs.example',
    tokenKeptIn: 'in the system keychain', signingIn: false, signInUrl: null,
    ...overrides,
  };
}

export function connectivity(online: boolean, reason: string | null = null): ConnectivityView {
  return { online, reason, since: '2026-01-01T00:00:00.000Z' };
}

export function queueEntry(overrides: Partial<QueueEntry> = {}): QueueEntry {
  return {
    id: 1, kind: 'upload', state: 'waiting', paused: false, attention: null, reason: null, folder: 'gear', path: 'gear/gear.stl', designId: 7,
    fileKind: 'document', bytesSent: 0, bytesTotal: 100, attempts: 0, nextAttemptAt: null,
    createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
