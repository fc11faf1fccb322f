import type { Session } from '../authorization/session';

type SessionStatus = 'signed-out' | 'signed-in' | 'needs-sign-in';

export interface SessionChanges {
  /** The service no longer accepts the sign-in. */
  lost(): void;
  /** A new sign-in (not the same one confirmed again). */
  signedIn(): void;
}

/**
 * Follows the session for the sync engine: only a change of its status means something (the session tells every state
 * it sets, also the same one again: each pass confirms the user with whoami, and a pass per confirmation would start
 * the next one). Returns the unsubscribe.
 */
export function followSession(session: Session, changes: SessionChanges): () => void {
  let last: SessionStatus | null = null;
  const changed = (status: SessionStatus) => {
    const was = last;
    last = status;
    if (status === was) return;
    if (status === 'needs-sign-in') changes.lost();
    else if (status === 'signed-in') changes.signedIn();
  };
  const unsubscribe = session.subscribe((state) => changed(state.status));
  if (session.state.status === 'needs-sign-in') changed('needs-sign-in');
  last = session.state.status;
  return unsubscribe;
}
