import type { AccountView, QueueEntry, SyncView } from '../../../shared';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import type { MessageId } from '../../../shared/i18n/messages';
import { wordedOr, type EngineWords } from '../../../shared/i18n/engine-words';
import { accountReasonWords } from '../../../shared/account/account-reason-words';
import { syncReasonWords } from '../../../shared/sync/sync-state-words';

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

/**
 * `words` gives the locale of the moment (the shell's language setting): notices are worded when they are said, so a
 * language changed meanwhile is the one they speak. The account's reason is worded from its code and facts
 * (accountReasonWords, as the window words it), a queue item's reason from its facts (engine-words.ts; one without
 * them as it came).
 */
export function createNotificationPolicy(words: () => Words = () => ENGLISH_INTL): NotificationPolicy {
  /** What each item was last notified for: the same item in the same state is never said twice. */
  const notified = new Map<number, string>();
  const pending = new Map<number, Pending>();
  let signInNotified = false;
  /** Why the sign-in notice is said: an item's reason, the account (both worded when said), or one of the notice's own. */
  let signInPending: ItemReason | MessageId | AccountView | null = null;
  let stoppedNotified: string | null = null;
  let stoppedPending: SyncView | null = null;

  const askSignIn = (reason: ItemReason | MessageId | AccountView) => {
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
        askSignIn(item.reason ? { english: item.reason, words: item.reasonWords ?? null } : SIGN_IN_FOR_CHANGES);
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
      const reason = sync.reason ?? sync.detail ?? '';
      if (stoppedNotified === reason) return;
      stoppedNotified = reason;
      stoppedPending = sync;
    },
    accountChanged(account) {
      if (account.status === 'needs-sign-in') askSignIn(account.reason !== null || account.reasonCode !== null ? account : SIGN_IN_FOR_ACCOUNT);
      else if (account.status === 'signed-in') {
        signInNotified = false;
        signInPending = null;
      } else signInPending = null;
    },
    hasPending() {
      return pending.size > 0 || signInPending !== null || stoppedPending !== null;
    },
    flush() {
      const intl = words();
      const notices: NativeNotice[] = [];
      if (stoppedPending !== null) {
        const body = syncReasonWords(stoppedPending, intl) ?? intl.formatMessage({ id: 'notifications.syncStopped.body' });
        notices.push({ kind: 'sync-stopped', title: intl.formatMessage({ id: 'notifications.syncStopped.title' }), body, route: '#/sync', itemIds: [] });
      }
      if (signInPending !== null) {
        const body = typeof signInPending !== 'object' ? intl.formatMessage({ id: signInPending })
          : 'english' in signInPending ? wordedOr(intl, signInPending.words, signInPending.english)
          : accountReasonWords(signInPending, intl) ?? intl.formatMessage({ id: SIGN_IN_FOR_ACCOUNT });
        notices.push({ kind: 'sign-in', title: intl.formatMessage({ id: 'notifications.signIn.title' }), body, route: '#/settings', itemIds: [] });
      }
      const byKind = new Map<NoticeKind, QueueEntry[]>();
      for (const { kind, item } of pending.values()) byKind.set(kind, [...(byKind.get(kind) ?? []), item]);
      for (const [kind, items] of byKind) notices.push(queueNotice(kind, items, intl));
      pending.clear();
      signInPending = null;
      stoppedPending = null;
      return notices;
    },
  };
}

/** A queue item's reason: its English, and its facts when it has them (worded when said). */
interface ItemReason {
  english: string;
  words: EngineWords | null;
}

/** The sign-in notices' own words, kept as their ids until said. */
const SIGN_IN_FOR_CHANGES: MessageId = 'notifications.signIn.forChanges';
const SIGN_IN_FOR_ACCOUNT: MessageId = 'notifications.signIn.forAccount';

function queueNotice(kind: NoticeKind, items: QueueEntry[], intl: Words): NativeNotice {
  const one = items.length === 1 ? items[0]! : null;
  const itemIds = items.map((item) => item.id);
  const notice = (title: string, body: string): NativeNotice => ({ kind, title, body, route: '#/sync', itemIds });
  const say = (id: MessageId, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const name = (item: QueueEntry) => nameOf(item, intl);
  const names = namesOf(items, name, intl);
  const count = items.length;
  const withReason = (item: QueueEntry, otherwise: MessageId) => (item.reason ? say('notifications.item.reason', { name: name(item), reason: wordedOr(intl, item.reasonWords, item.reason) }) : say(otherwise, { name: name(item) }));
  switch (kind) {
    case 'failed': {
      const uploads = items.every((item) => item.kind === 'upload' || item.kind === 'replace');
      if (one) return notice(say(uploads ? 'notifications.failed.uploadTitle' : 'notifications.failed.changeTitle'), withReason(one, 'notifications.failed.one'));
      return notice(say(uploads ? 'notifications.failed.uploadsTitle' : 'notifications.failed.changesTitle', { count }), say('notifications.failed.many', { names }));
    }
    case 'conflict':
      if (one) return notice(say('notifications.conflict.title'), withReason(one, 'notifications.conflict.one'));
      return notice(say('notifications.conflict.manyTitle', { count }), say('notifications.conflict.many', { names }));
    case 'confirm-delete':
      if (one) return notice(say('notifications.confirmDelete.title'), say('notifications.confirmDelete.one', { name: name(one) }));
      return notice(say('notifications.confirmDelete.manyTitle', { count }), say('notifications.confirmDelete.many', { names }));
    case 'confirm-design':
      if (one) return notice(say('notifications.confirmDesign.title'), say('notifications.confirmDesign.one', { folder: one.folder ?? name(one) }));
      return notice(say('notifications.confirmDesign.manyTitle', { count }), say('notifications.confirmDesign.many', { names: namesOf(items, (item) => item.folder ?? name(item), intl) }));
    default:
      if (one) return notice(say('notifications.attention.title'), withReason(one, 'notifications.attention.one'));
      return notice(say('notifications.attention.manyTitle', { count }), say('notifications.attention.many', { names }));
  }
}

function nameOf(item: QueueEntry, intl: Words): string {
  return item.path ?? item.folder ?? intl.formatMessage({ id: 'notifications.item.fallbackName' }, { id: item.id });
}

/** "a, b and 3 more" ("a, b und 3 weitere"): the first NAMES_SHOWN names, as the locale lists them. */
function namesOf(items: QueueEntry[], name: (item: QueueEntry) => string, intl: Words): string {
  const shown = items.slice(0, NAMES_SHOWN).map(name);
  const more = items.length - shown.length;
  return intl.formatList(more > 0 ? [...shown, intl.formatMessage({ id: 'notifications.names.more' }, { count: more })] : shown, { type: 'conjunction' });
}
