import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SampleServiceView } from '../../../../shared';
import { contract } from '../../contract/contract';
import { useAccount } from '../../stores/account-store';
import { useSync } from '../../stores/sync-store';
import { engineWordsText } from '../../../../shared/i18n/engine-words';
import { windowWords } from '../problem-words';

const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/**
 * For a profile on the sample service: why it is not running when it is not (its port taken by another program…), and
 * how to sign in on it while signed out.
 */
export function SampleServiceNotice() {
  const intl = useIntl();
  const [sample, setSample] = useState<SampleServiceView | null>(null);
  const serviceUrl = useAccount((store) => store.account?.serviceUrl ?? null);
  const signedOut = useAccount((store) => store.account?.status === 'signed-out' && !store.account.signingIn);
  const online = useSync((store) => store.connectivity?.online ?? null);
  useEffect(() => {
    let current = true;
    void contract.request('service.sample', {}).then((outcome) => {
      if (current && outcome.ok) setSample(outcome.value);
    });
    return () => {
      current = false;
    };
  }, [serviceUrl, online]);
  if (!sample?.inUse) return null;
  if (sample.problem) return <p className="banner banner-error" role="alert">{sample.problemWords ? engineWordsText(intl, sample.problemWords) : windowWords(sample.problem)}</p>;
  if (!signedOut) return null;
  return (
    <p className="banner banner-note" role="status">
      <FormattedMessage id="welcome.sampleNotice" values={{ name: sample.signIn.screenName, password: sample.signIn.password, strong }} />
    </p>
  );
}
