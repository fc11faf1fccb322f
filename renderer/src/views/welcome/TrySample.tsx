import { useId, useState } from 'react';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';
import { serviceChosen } from './service-chosen';

/** "Try it with sample designs": the bundled local service, started by design-sync for this profile. */
export function TrySample({ busy, onBusy }: { busy: boolean; onBusy(busy: boolean): void }) {
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
      setProblem(problemWords(outcome.problem));
      return;
    }
    await serviceChosen();
  }

  return (
    <section className="welcome-way" aria-labelledby={titleId}>
      <h3 id={titleId}>Try it with sample designs</h3>
      <p>
        design-sync starts a small design-sharing service on this computer, with some sixty sample designs, and uses it
        for this profile. Sign in on it as <strong>demo</strong>, password <strong>demo</strong>, to try your own designs.
      </p>
      <button type="button" onClick={() => void trySample()} disabled={starting || busy} aria-describedby={busy && !starting ? reasonId : undefined}>
        {starting ? 'Starting…' : 'Try it with sample designs'}
      </button>
      {starting ? <p className="welcome-hint" role="status">Starting the sample service… The first time it makes its sample designs, which takes a few seconds.</p> : null}
      {busy && !starting ? <p id={reasonId} className="welcome-hint">Wait until the address is checked.</p> : null}
      {problem ? <p className="field-error" role="alert">{problem}</p> : null}
    </section>
  );
}
