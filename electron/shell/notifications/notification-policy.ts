import type { AccountView, QueueEntry, SyncView } from '../../../shared';

/**
 * Which contract events deserve a native notification, in plain words, each once. Only what a person must know or do:
 * a change that failed for good, a conflict, something waiting for them (deletions to confirm, a new design to
 * confirm, a file refused), a sign-in needed, sync stopped. Progress, retries under backoff and successes stay in the
 * window. A burst (a folder of files refused at once) becomes one notification per kind: "3 uploads failed".
 */

export type NoticeKind = 'failed' | 'conflict' | 'confirm-delete' | 'confirm-design' | 'needs-attention' | 'sign-in' | 'sync-stopped';

export interface NativeNotice {
  kind: NoticeKind;
  title: string;
  body: string;
  /** The window's route to open on a click. */
  route: '#/sync' | '#/settings';
  /** Queue items it speaks of (empty for account and sync notices). */
  itemIds: number[];
}

/** Waits this long after the first of a burst before speaking, so that a burst is one notification. */
export const COALESCE_MS = 1500;
/** Names listed in a coalesced body before "and N more". */
const NAMES_SHOWN = 2;

interface Pending {
  kind: NoticeKind;
  item: QueueEntry;
}

export interface NotificationPolicy {
  queueItem(item: QueueEntry): void;
  syncChanged(sync: SyncView): void;
  accountChanged(account: AccountView): void;
  /** Whether anything waits to be said (main then arms one timer of COALESCE_MS). */
  hasPending(): boolean;
  /** What to say now, coalesced; forgets it. */
  flush(): NativeNotice[];
}

/** The kind of notice a queue item in this state deserves, or null. */
export function noticeKindOf(item: Pick<QueueEntry, 'state' | 'attention'>): NoticeKind | null {
  if (item.state === 'failed') return 'failed';
  if (item.state !== 'attention') return null;
  switch (item.attention) {
    case 'conflict': return 'conflict';
    case 'confirm-delete': return 'confirm-delete';
    case 'confirm-design': return 'confirm-design';
    case 'sign-in': return 'sign-in';
    default: return 'needs-attention';
  }
}

export function createNotificationPolicy(): NotificationPolicy {
  /** What each item was last notified for: the same item in the same state is never said twice. */
  const notified = new Map<number, string>();
  const pending = new Map<number, Pending>();
  let signInNotified = false;
  let signInPending: string | null = null;
  let stoppedNotified: string | null = null;
  let stoppedPending: string | null = null;

  const askSignIn = (reason: string) => {
    if (signInNotified) return;
    signInNotified = true;
    signInPending = reason;
  };

  return {
    queueItem(item) {
      const kind = noticeKindOf(item);
      if (kind === null) {
        // Retried, running, done or cancelled: a later failure is news again.
        notified.delete(item.id);
        pending.delete(item.id);
        return;
      }
      const signature = `${item.state}:${item.attention ?? ''}`;
      if (notified.get(item.id) === signature) return;
      notified.set(item.id, signature);
      if (kind === 'sign-in') {
        askSignIn(item.reason ?? 'Sign in again so that your changes can be sent.');
        return;
      }
      pending.set(item.id, { kind, item });
    },
    syncChanged(sync) {
      // Said in the status's own words (its reason, made by the shared syncReasonWords), once per stop.
      if (sync.reasonCode !== 'folder-unavailable') {
        stoppedNotified = null;
        return;
      }
      const reason = sync.reason ?? 'Sync stopped.';
      if (stoppedNotified === reason) return;
      stoppedNotified = reason;
      stoppedPending = reason;
    },
    accountChanged(account) {
      if (account.status === 'needs-sign-in') askSignIn(account.reason ?? 'Sign in again so that design-sync can reach your account.');
      else if (account.status === 'signed-in') {
        signInNotified = false;
        signInPending = null;
      } else signInPending = null;
    },
    hasPending() {
      return pending.size > 0 || signInPending !== null || stoppedPending !== null;
    },
    flush() {
      const notices: NativeNotice[] = [];
      if (stoppedPending !== null) notices.push({ kind: 'sync-stopped', title: 'Sync stopped', body: stoppedPending, route: '#/sync', itemIds: [] });
      if (signInPending !== null) notices.push({ kind: 'sign-in', title: 'Sign in needed', body: signInPending, route: '#/settings', itemIds: [] });
      const byKind = new Map<NoticeKind, QueueEntry[]>();
      for (const { kind, item } of pending.values()) byKind.set(kind, [...(byKind.get(kind) ?? []), item]);
      for (const [kind, items] of byKind) notices.push(queueNotice(kind, items));
      pending.clear();
      signInPending = null;
      stoppedPending = null;
      return notices;
    },
  };
}

function queueNotice(kind: NoticeKind, items: QueueEntry[]): NativeNotice {
  const one = items.length === 1 ? items[0]! : null;
  const itemIds = items.map((item) => item.id);
  const notice = (title: string, body: string): NativeNotice => ({ kind, title, body, route: '#/sync', itemIds });
  const names = namesOf(items);
  switch (kind) {
    case 'failed': {
      const uploads = items.every((item) => item.kind === 'upload' || item.kind === 'replace');
      const noun = uploads ? 'upload' : 'change';
      if (one) return notice(uploads ? 'Upload failed' : 'A change could not be sent', withReason(nameOf(one), one.reason, 'Open design-sync to retry it.'));
      return notice(`${items.length} ${noun}s failed`, `${names}. Open design-sync to see why and retry.`);
    }
    case 'conflict':
      if (one) return notice('Conflict', withReason(nameOf(one), one.reason, 'It changed here and on the service: choose which to keep.'));
      return notice(`${items.length} conflicts`, `${names} changed here and on the service: choose which to keep.`);
    case 'confirm-delete':
      if (one) return notice('A deletion to confirm', `${nameOf(one)} was removed from the sync folder. It is deleted on the service only when you confirm.`);
      return notice(`${items.length} deletions to confirm`, `${names} were removed from the sync folder. They are deleted on the service only when you confirm.`);
    case 'confirm-design':
      if (one) return notice('A new design to confirm', `The folder ${one.folder ?? nameOf(one)} becomes a design on the service once you confirm it.`);
      return notice(`${items.length} new designs to confirm`, `The folders ${namesOf(items, (item) => item.folder ?? nameOf(item))} become designs on the service once you confirm them.`);
    default:
      if (one) return notice('A file needs your attention', withReason(nameOf(one), one.reason, 'Open design-sync to see what to do.'));
      return notice(`${items.length} files need your attention`, `${names}. Open design-sync to see what to do.`);
  }
}

function nameOf(item: QueueEntry): string {
  return item.path ?? item.folder ?? `item ${item.id}`;
}

function namesOf(items: QueueEntry[], name: (item: QueueEntry) => string = nameOf): string {
  const shown = items.slice(0, NAMES_SHOWN).map(name);
  const more = items.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(' and ');
}

function withReason(name: string, reason: string | null, otherwise: string): string {
  return reason ? `${name}: ${reason}` : `${name}. ${otherwise}`;
}
