import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';
import { serviceChosen } from './service-chosen';

/** "Connect to your service": its address, checked by the engine before it is saved. */
export function ConnectForm({ busy, onBusy }: { busy: boolean; onBusy(busy: boolean): void }) {
  const intl = useIntl();
  const [address, setAddress] = useState('');
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();

  async function connect(event: FormEvent) {
    event.preventDefault();
    if (!address.trim()) {
      setProblem(intl.formatMessage({ id: 'welcome.connect.missing' }));
      return;
    }
    setChecking(true);
    onBusy(true);
    setProblem(null);
    const outcome = await contract.request('settings.update', { serviceUrl: address.trim() });
    setChecking(false);
    onBusy(false);
    if (!outcome.ok) {
      // The engine's words, the field named ("Service address cannot be reached: nothing answers at …").
      setProblem(problemWords(outcome.problem, intl));
      return;
    }
    await serviceChosen();
  }

  return (
    <form className="welcome-way" aria-labelledby={`${inputId}-title`} onSubmit={(event) => void connect(event)} noValidate>
      <h3 id={`${inputId}-title`}><FormattedMessage id="welcome.connect.title" /></h3>
      <label htmlFor={inputId}><FormattedMessage id="welcome.connect.address" /></label>
      <p id={hintId} className="welcome-hint"><FormattedMessage id="welcome.connect.hint" /></p>
      <div className="welcome-row">
        <input id={inputId} type="text" inputMode="url" autoComplete="url" spellCheck={false} value={address}
          onChange={(event) => setAddress(event.target.value)} aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${hintId} ${problemId}` : hintId} />
        <button type="submit" className="primary" disabled={checking || busy} aria-describedby={busy && !checking ? problemId : undefined}>
          <FormattedMessage id={checking ? 'welcome.connect.checking' : 'welcome.connect.submit'} />
        </button>
      </div>
      {checking ? <p className="welcome-hint" role="status"><FormattedMessage id="welcome.connect.checkingHint" /></p> : null}
      {busy && !checking ? <p id={problemId} className="welcome-hint"><FormattedMessage id="welcome.connect.waitForSample" /></p> : null}
      {problem ? <p id={problemId} className="field-error" role="alert">{problem}</p> : null}
    </form>
  );
}
