import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { ConnectForm } from './ConnectForm';
import { TrySample } from './TrySample';

/** The first view of a profile with no service: what design-sync is, and the two ways on. */
export function WelcomeView() {
  // One way at a time: a check of an address and a start of the sample service would race to choose the service.
  const [busy, setBusy] = useState<'connect' | 'sample' | null>(null);
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h2 id="welcome-title"><FormattedMessage id="welcome.title" /></h2>
      <p className="welcome-lede"><FormattedMessage id="welcome.lede" /></p>
      <p><FormattedMessage id="welcome.choose" /></p>
      <div className="welcome-ways">
        <ConnectForm busy={busy === 'sample'} onBusy={(on) => setBusy(on ? 'connect' : null)} />
        <TrySample busy={busy === 'connect'} onBusy={(on) => setBusy(on ? 'sample' : null)} />
      </div>
    </section>
  );
}
