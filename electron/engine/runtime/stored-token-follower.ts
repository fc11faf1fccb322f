import type { Session } from '../authorization/session';
import { engineLog } from '../log/engine-log';

/**
 * While the queue of a service waits for a sign-in, watches the token store for a token another process stores
 * (`design-sync login` in another terminal) and takes it up as soon as it is there — also the same token, stored again
 * by a new sign-in: the session signs in, so the queue resumes and a sync pass starts. Only a token issued for that
 * service (one for another is left alone).
 */
export class StoredTokenFollower {
  private stopWatching: (() => void) | null = null;

  constructor(private readonly session: Session, private readonly closed: () => boolean) {}

  /** Follows the store for a sign-in to `waitingFor`; null stops following. */
  follow(waitingFor: string | null): void {
    if (waitingFor === null || this.closed()) {
      this.stopWatching?.();
      this.stopWatching = null;
      return;
    }
    const store = this.session.store;
    if (this.stopWatching || !store.watch) return;
    const reload = (storedAgain: boolean) => {
      if (this.closed()) return;
      this.session.load({ onlyFor: waitingFor, storedAgain }).then(
        (state) => {
          if (state.status === 'signed-in') engineLog.info('session', 'a new sign-in was stored by another process: taken up');
        },
        (error: unknown) => engineLog.warn('session', 'the stored token changed but cannot be read', error),
      );
    };
    // Written again, even with the token the service refused: a new sign-in (the service may give the same token back).
    this.stopWatching = store.watch(() => reload(true));
    // A sign-in stored between the refusal and now is taken up too (a different token only: the refused one stays refused).
    reload(false);
  }
}
