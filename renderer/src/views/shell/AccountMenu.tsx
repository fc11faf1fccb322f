import { useId } from 'react';
import { useAccount } from '../../stores/account-store';
import { windowWords } from '../problem-words';
import { useAvailability } from '../use-availability';

/** Who is signed in, and the way in or out. Sign-in happens on the service's own page, in the browser. */
export function AccountMenu() {
  const { account, notice, signIn, cancelSignIn, signOut } = useAccount();
  const signingIn = useAvailability().can('sign-in');
  const reasonId = useId();
  if (!account) return null;
  if (account.signingIn) {
    return (
      <div className="account">
        <span>Finish signing in in your browser{account.signInUrl ? <> (or open <a href={account.signInUrl} target="_blank" rel="noreferrer">the sign-in page</a>)</> : null}.</span>
        <button type="button" onClick={() => void cancelSignIn()}>Cancel</button>
      </div>
    );
  }
  if (account.status === 'signed-in') {
    return (
      <div className="account">
        <span>{account.user ? <>Signed in as <strong>{account.user.screenName}</strong></> : 'Signed in'}</span>
        <button type="button" onClick={() => void signOut()}>Sign out</button>
      </div>
    );
  }
  return (
    <div className="account">
      {account.reason ? <span className="account-reason">{account.reason}</span> : null}
      {notice ? <span className="account-reason" role="alert">{windowWords(notice)}</span> : null}
      {/* Off without a service (or a link to design-sync), always saying why; offline the Settings view warns. The
          service is what the settings know, which a newly saved address reaches before the account does. */}
      {signingIn.enabled ? null : <span id={reasonId} className="account-reason" data-testid="action-reason">{signingIn.reason}</span>}
      <button type="button" className="primary" onClick={() => void signIn()} disabled={!signingIn.enabled}
        aria-describedby={signingIn.enabled ? undefined : reasonId}>Sign in</button>
    </div>
  );
}
