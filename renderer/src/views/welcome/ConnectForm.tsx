import { useId, useState, type FormEvent } from 'react';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';
import { serviceChosen } from './service-chosen';

/** "Connect to your service": its address, checked by the engine before it is saved. */
export function ConnectForm({ busy, onBusy }: { busy: boolean; onBusy(busy: boolean): void }) {
  const [address, setAddress] = useState('');
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();

  async function connect(event: FormEvent) {
    event.preventDefault();
    if (!address.trim()) {
      setProblem('Enter your service\'s address first, e.g. https://api.example.com.');
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
      setProblem(problemWords(outcome.problem));
      return;
    }
    await serviceChosen();
  }

  return (
    <form className="welcome-way" aria-labelledby={`${inputId}-title`} onSubmit={(event) => void connect(event)} noValidate>
      <h3 id={`${inputId}-title`}>Connect to your service</h3>
      <label htmlFor={inputId}>Service address</label>
      <p id={hintId} className="welcome-hint">The address of its API, as your service gives it (e.g. https://api.example.com).</p>
      <div className="welcome-row">
        <input id={inputId} type="text" inputMode="url" autoComplete="url" spellCheck={false} value={address}
          onChange={(event) => setAddress(event.target.value)} aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${hintId} ${problemId}` : hintId} />
        <button type="submit" className="primary" disabled={checking || busy} aria-describedby={busy && !checking ? problemId : undefined}>
          {checking ? 'Checking…' : 'Connect'}
        </button>
      </div>
      {checking ? <p className="welcome-hint" role="status">Checking that a design-sharing service answers there…</p> : null}
      {busy && !checking ? <p id={problemId} className="welcome-hint">Wait until the sample service has started.</p> : null}
      {problem ? <p id={problemId} className="field-error" role="alert">{problem}</p> : null}
    </form>
  );
}
