import type { AccountView, QueueEntry, SyncView } from '../../../shared';
import type { Words } from '../../../shared/i18n/create-intl';
import { COALESCE_MS, createNotificationPolicy, type NativeNotice } from './notification-policy';

export interface NotifierOptions {
  /** Shows one native notification (main: `new Notification({ title, body }).show()`, a click opening `route`). */
  show(notice: NativeNotice): void;
  coalesceMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  /** The words of the moment (the language setting); English when not given. */
  words?: () => Words;
}

/** The policy with its one timer: events in, coalesced notifications out, COALESCE_MS after the first of a burst. */
export function createNotifier({ show, coalesceMs = COALESCE_MS, setTimer = setTimeout, clearTimer = (timer) => clearTimeout(timer as NodeJS.Timeout), words }: NotifierOptions) {
  const policy = createNotificationPolicy(words);
  let timer: unknown = null;
  const arm = () => {
    if (timer !== null || !policy.hasPending()) return;
    timer = setTimer(() => {
      timer = null;
      for (const notice of policy.flush()) show(notice);
    }, coalesceMs);
  };
  return {
    queueItem(item: QueueEntry) { policy.queueItem(item); arm(); },
    syncChanged(sync: SyncView) { policy.syncChanged(sync); arm(); },
    accountChanged(account: AccountView) { policy.accountChanged(account); arm(); },
    /** On quit: nothing more is shown. */
    dispose() {
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}
