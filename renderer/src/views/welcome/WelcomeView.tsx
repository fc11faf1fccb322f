import { useState } from 'react';
import { ConnectForm } from './ConnectForm';
import { TrySample } from './TrySample';

/** The first view of a profile with no service: what design-sync is, and the two ways on. */
export function WelcomeView() {
  // One way at a time: a check of an address and a start of the sample service would race to choose the service.
  const [busy, setBusy] = useState<'connect' | 'sample' | null>(null);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Welcome to design-sync</h2>
      <p className="welcome-lede">
        design-sync keeps a design-sharing service's catalogue on your computer to browse even offline, and keeps your own
        designs in step with a folder.
      </p>
      <p>Choose the service to use:</p>
      <div className="welcome-ways">
        <ConnectForm busy={busy === 'sample'} onBusy={(on) => setBusy(on ? 'connect' : null)} />
        <TrySample busy={busy === 'connect'} onBusy={(on) => setBusy(on ? 'sample' : null)} />
      </div>
    </section>
  );
}
