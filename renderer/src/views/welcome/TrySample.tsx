import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';
import { serviceChosen } from './service-chosen';

/** The sample service's sign-in, made when it starts its sample designs (a user name and password, not words). */
const SAMPLE_SIGN_IN = { name: 'demo', password: 'demo' };
const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** "Try it with sample designs": the bundled local service, started by design-sync for this profile. */
export function TrySample({ busy, onBusy }: { busy: boolean; onBusy(busy: boolean): void }) {
  const intl = useIntl();
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const reasonId = useId();

  async function trySample() {
    setStarting(true);
    onBusy(true);
    setProblem(null);
    const outcome = await contract.request('service.trySample', {});
    setStarting(false);
    onBusy(false);
    if (!outcome.ok) {
      setProblem(problemWords(outcome.problem, intl));
      return;
    }
    await serviceChosen();
  }

  return (
    <section className="welcome-way" aria-labelledby={titleId}>
      <h3 id={titleId}><FormattedMessage id="welcome.sample.title" /></h3>
      <p><FormattedMessage id="welcome.sample.text" values={{ ...SAMPLE_SIGN_IN, strong }} /></p>
      <button type="button" onClick={() => void trySample()} disabled={starting || busy} aria-describedby={busy && !starting ? reasonId : undefined}>
        <FormattedMessage id={starting ? 'welcome.sample.starting' : 'welcome.sample.button'} />
      </button>
      {starting ? <p className="welcome-hint" role="status"><FormattedMessage id="welcome.sample.startingHint" /></p> : null}
      {busy && !starting ? <p id={reasonId} className="welcome-hint"><FormattedMessage id="welcome.sample.waitForCheck" /></p> : null}
      {problem ? <p className="field-error" role="alert">{problem}</p> : null}
    </section>
  );
}
