import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNotificationPolicy, noticeKindOf } from '../../electron/shell/notifications/notification-policy';
import { createNotifier } from '../../electron/shell/notifications/notifier';
import type { NativeNotice } from '../../electron/shell/notifications/notification-policy';
import { accountView, queueEntry, syncView } from './shell-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

describe('which events deserve a notification', () => {
  it('leaves progress, waiting, running, done and cancelled items to the window', () => {
    const policy = createNotificationPolicy();
    for (const state of ['waiting', 'running', 'done', 'cancelled'] as const) policy.queueItem(queueEntry({ id: 1, state }));
    policy.syncChanged(syncView({ state: 'syncing', runState: 'syncing' }));
    policy.accountChanged(accountView());
    expect(policy.hasPending()).toBe(false);
    expect(policy.flush()).toEqual([]);
  });

  it('says an upload failed, with the file and the reason, once', () => {
    const policy = createNotificationPolicy();
    const failed = queueEntry({ id: 4, state: 'failed', reason: 'The service refused gear.stl: too large.' });
    policy.queueItem(failed);
    policy.queueItem({ ...failed, updatedAt: '2026-01-01T00:00:01.000Z' });
    expect(policy.flush()).toEqual([{ kind: 'failed', title: 'Upload failed', body: 'gear/gear.stl: The service refused gear.stl: too large.', route: '#/sync', itemIds: [4] }]);
    policy.queueItem(failed);
    expect(policy.flush()).toEqual([]);
  });

  it('says it again when the same item fails again after a retry', () => {
    const policy = createNotificationPolicy();
    policy.queueItem(queueEntry({ id: 4, state: 'failed', reason: 'Gave up.' }));
    expect(policy.flush()).toHaveLength(1);
    policy.queueItem(queueEntry({ id: 4, state: 'waiting' }));
    policy.queueItem(queueEntry({ id: 4, state: 'failed', reason: 'Gave up again.' }));
    expect(policy.flush()).toMatchObject([{ body: 'gear/gear.stl: Gave up again.' }]);
  });

  it('coalesces a burst of failures into one "3 uploads failed"', () => {
    const policy = createNotificationPolicy();
    for (const [id, path] of [[1, 'a/one.stl'], [2, 'a/two.stl'], [3, 'a/three.stl']] as const) policy.queueItem(queueEntry({ id, path, state: 'failed', reason: 'refused' }));
    expect(policy.flush()).toEqual([{ kind: 'failed', title: '3 uploads failed', body: 'a/one.stl, a/two.stl and 1 more. Open design-sync to see why and retry.', route: '#/sync', itemIds: [1, 2, 3] }]);
  });

  it('calls failed changes that are not uploads "changes"', () => {
    const policy = createNotificationPolicy();
    policy.queueItem(queueEntry({ id: 1, kind: 'rename', state: 'failed', reason: null }));
    policy.queueItem(queueEntry({ id: 2, kind: 'upload', state: 'failed', reason: null }));
    expect(policy.flush()).toMatchObject([{ title: '2 changes failed' }]);
  });

  it('tells of conflicts, deletions to confirm, new designs to confirm and refused files, one notification per kind', () => {
    const policy = createNotificationPolicy();
    policy.queueItem(queueEntry({ id: 1, state: 'attention', attention: 'conflict', reason: 'Changed here and on the service.' }));
    policy.queueItem(queueEntry({ id: 2, kind: 'delete-remote', state: 'attention', attention: 'confirm-delete', path: 'gear/old.stl' }));
    policy.queueItem(queueEntry({ id: 3, kind: 'delete-remote', state: 'attention', attention: 'confirm-delete', path: 'gear/older.stl' }));
    policy.queueItem(queueEntry({ id: 4, kind: 'create-design', state: 'attention', attention: 'confirm-design', folder: 'Bracket', path: null }));
    policy.queueItem(queueEntry({ id: 5, state: 'attention', attention: 'refused', path: 'gear/setup.exe', reason: 'executable files (.exe) cannot be uploaded as documents' }));
    const notices = policy.flush();
    expect(notices.map((notice) => notice.title)).toEqual(['Conflict', '2 deletions to confirm', 'A new design to confirm', 'A file needs your attention']);
    expect(notices[0]!.body).toBe('gear/gear.stl: Changed here and on the service.');
    expect(notices[1]!.body).toBe('gear/old.stl and gear/older.stl were removed from the sync folder. They are deleted on the service only when you confirm.');
    expect(notices[2]!.body).toBe('The folder Bracket becomes a design on the service once you confirm it.');
    expect(notices[3]!.body).toBe('gear/setup.exe: executable files (.exe) cannot be uploaded as documents');
  });

  it('forgets an item handled before it was said (retried or cancelled in the window)', () => {
    const policy = createNotificationPolicy();
    policy.queueItem(queueEntry({ id: 1, state: 'failed' }));
    policy.queueItem(queueEntry({ id: 1, state: 'cancelled' }));
    expect(policy.flush()).toEqual([]);
  });

  it('asks to sign in once, whether the account or a queue item says so, and again after a new sign-in expires', () => {
    const policy = createNotificationPolicy();
    policy.accountChanged(accountView({ status: 'needs-sign-in', reason: 'The service no longer accepts the sign-in.' }));
    policy.queueItem(queueEntry({ id: 9, state: 'attention', attention: 'sign-in', reason: 'Sign in to send this.' }));
    policy.accountChanged(accountView({ status: 'needs-sign-in', reason: 'The service no longer accepts the sign-in.' }));
    expect(policy.flush()).toEqual([{ kind: 'sign-in', title: 'Sign in needed', body: 'The service no longer accepts the sign-in.', route: '#/settings', itemIds: [] }]);
    policy.accountChanged(accountView({ status: 'needs-sign-in' }));
    expect(policy.flush()).toEqual([]);
    policy.accountChanged(accountView({ status: 'signed-in' }));
    policy.accountChanged(accountView({ status: 'needs-sign-in', reason: null }));
    expect(policy.flush()).toMatchObject([{ kind: 'sign-in', body: 'Sign in again so that design-sync can reach your account.' }]);
  });

  it('says when sync stopped, once per reason, and not for a failed change (the item says that)', () => {
    const policy = createNotificationPolicy();
    policy.syncChanged(syncView({ state: 'error', reasonCode: 'changes-failed', runState: 'syncing', reason: 'A change failed.' }));
    expect(policy.flush()).toEqual([]);
    const stopped = syncView({ state: 'error', reasonCode: 'folder-unavailable', runState: 'stopped', detail: 'The sync folder /home/ada/Designs is gone.', reason: 'The sync folder /home/ada/Designs is gone.' });
    policy.syncChanged(stopped);
    policy.syncChanged(stopped);
    expect(policy.flush()).toEqual([{ kind: 'sync-stopped', title: 'Sync stopped', body: 'The sync folder /home/ada/Designs is gone.', route: '#/sync', itemIds: [] }]);
    policy.syncChanged(stopped);
    expect(policy.flush()).toEqual([]);
    policy.syncChanged(syncView());
    policy.syncChanged(stopped);
    expect(policy.flush()).toHaveLength(1);
  });

  it('knows the kind of each queue state', () => {
    expect(noticeKindOf({ state: 'attention', attention: 'missing-design' })).toBe('needs-attention');
    expect(noticeKindOf({ state: 'attention', attention: 'invalid-file' })).toBe('needs-attention');
    expect(noticeKindOf({ state: 'running', attention: null })).toBeNull();
  });
});

describe('the notifier', () => {
  afterEach(() => vi.useRealTimers());

  it('waits for a burst to end its first moment, then shows one notification for it', () => {
    vi.useFakeTimers();
    const shown: NativeNotice[] = [];
    const notifier = createNotifier({ show: (notice) => shown.push(notice), coalesceMs: 1000 });
    notifier.queueItem(queueEntry({ id: 1, state: 'failed' }));
    vi.advanceTimersByTime(500);
    notifier.queueItem(queueEntry({ id: 2, state: 'failed' }));
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(shown.map((notice) => notice.title)).toEqual(['2 uploads failed']);
    notifier.queueItem(queueEntry({ id: 3, state: 'failed' }));
    vi.advanceTimersByTime(1000);
    expect(shown.map((notice) => notice.title)).toEqual(['2 uploads failed', 'Upload failed']);
  });

  it('arms no timer for events that say nothing, and shows nothing after dispose', () => {
    vi.useFakeTimers();
    const shown: NativeNotice[] = [];
    const notifier = createNotifier({ show: (notice) => shown.push(notice) });
    notifier.queueItem(queueEntry({ id: 1, state: 'running' }));
    expect(vi.getTimerCount()).toBe(0);
    notifier.queueItem(queueEntry({ id: 1, state: 'failed' }));
    notifier.dispose();
    vi.runAllTimers();
    expect(shown).toEqual([]);
  });
});
