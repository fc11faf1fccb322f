import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAccount } from '../../stores/account-store';
import { windowWords } from '../problem-words';
import { accountReasonWords } from './account-reason';
import { useAvailability } from '../use-availability';

/** Who is signed in, and the way in or out. Sign-in happens on the service's own page, in the browser. */
export function AccountMenu() {
  const intl = useIntl();
  const { account, notice, signIn, cancelSignIn, signOut } = useAccount();
  const signingIn = useAvailability().can('sign-in');
  const reasonId = useId();
  if (!account) return null;
  if (account.signingIn) {
    const signInUrl = account.signInUrl;
    return (
      <div className="account">
        <span>{signInUrl
          ? <FormattedMessage id="shell.account.finishSignInWithLink" values={{ link: (chunks) => <a href={signInUrl} target="_blank" rel="noreferrer">{chunks}</a> }} />
          : <FormattedMessage id="shell.account.finishSignIn" />}</span>
        <button type="button" onClick={() => void cancelSignIn()}><FormattedMessage id="shell.account.cancel" /></button>
      </div>
    );
  }
  if (account.status === 'signed-in') {
    const user = account.user;
    return (
      <div className="account">
        <span>{user
          ? <FormattedMessage id="shell.account.signedInAs" values={{ name: user.screenName, strong: (chunks) => <strong>{chunks}</strong> }} />
          : <FormattedMessage id="shell.account.signedIn" />}</span>
        <button type="button" onClick={() => void signOut()}><FormattedMessage id="shell.account.signOut" /></button>
      </div>
    );
  }
  const reason = accountReasonWords(account, intl);
  return (
    <div className="account">
      {reason ? <span className="account-reason">{reason}</span> : null}
      {notice ? <span className="account-reason" role="alert">{windowWords(notice)}</span> : null}
      {/* Off without a service (or a link to design-sync), always saying why; offline the Settings view warns. The
          service is what the settings know, which a newly saved address reaches before the account does. */}
      {signingIn.enabled ? null : <span id={reasonId} className="account-reason" data-testid="action-reason">{signingIn.reason}</span>}
      <button type="button" className="primary" onClick={() => void signIn()} disabled={!signingIn.enabled}
        aria-describedby={signingIn.enabled ? undefined : reasonId}><FormattedMessage id="shell.account.signIn" /></button>
    </div>
  );
}
