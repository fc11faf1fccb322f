import { useEffect, useState } from 'react';
import { useAccount } from '../../stores/account-store';
import { useLibrary } from '../../stores/library-store';
import { useSettings } from '../../stores/settings-store';
import { windowWords } from '../problem-words';
import { ProblemBanner } from '../shell/ProblemBanner';
import { BandwidthPanel } from '../bandwidth/BandwidthPanel';
import { ProxyPanel } from '../proxy/ProxyPanel';
import { StartAtLoginPanel } from '../start-at-login/StartAtLoginPanel';
import { describeAge } from '../time';
import { UpdatesPanel } from '../updates/UpdatesPanel';
import { useAvailability } from '../use-availability';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** Where the engine log is, to attach to a bug report: its path, selectable, and a button that copies it. */
function EngineLogPanel({ file, problem }: { file: string; problem: string | null }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(file).then(
      () => setCopied('Copied.'),
      () => setCopied('Could not copy: select the path and copy it.'),
    );
  };
  return (
    <section className="panel" aria-labelledby="log-title">
      <h3 id="log-title">Diagnostics</h3>
      <p>Engine log: <code>{file}</code> <button type="button" onClick={copy}>Copy the path</button> {copied ? <span role="status">{copied}</span> : null}</p>
      {problem ? <p className="field-error" role="alert">{problem}</p> : null}
    </section>
  );
}

/** The account (sign-in on the service's own page), the service's address, and the cache: its size, limit and age. */
export function SettingsView() {
  const { settings, diagnostics, problem, saved, load, update } = useSettings();
  const { account, notice, signIn, signOut } = useAccount();
  const { pulling, pullProblem, pullCatalogue } = useLibrary();
  const { can } = useAvailability();
  const pull = can('pull-catalogue');
  const signingIn = can('sign-in');
  const signInNote = signingIn.enabled ? signingIn.note : signingIn.reason;
  const [serviceUrl, setServiceUrl] = useState('');
  const [webUrl, setWebUrl] = useState('');
  const [limit, setLimit] = useState('');
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (settings) {
      setServiceUrl(settings.serviceUrl ?? '');
      setWebUrl(settings.webUrlDerived ? '' : settings.webUrl ?? '');
      setLimit(String(Math.round(settings.cacheLimitBytes / 1024 / 1024)));
    }
  }, [settings]);
  if (!settings || !account) return <section className="settings"><p className="empty" role="status">Loading settings…</p></section>;
  return (
    <section className="settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Account and settings</h2>
      <ProblemBanner problem={problem} />
      {saved ? <p className="banner banner-note" role="status">{saved}</p> : null}
      {diagnostics?.notices.map((notice) => <p key={notice} className="banner" role="status">{notice}</p>)}

      <section className="panel" aria-labelledby="account-title">
        <h3 id="account-title">Account</h3>
        {account.status === 'signed-in' ? (
          <>
            <p>Signed in{account.user ? <> as <strong>{account.user.screenName}</strong>{account.user.realName ? ` (${account.user.realName})` : ''}</> : ''}.</p>
            <p className="field-help">The sign-in is kept {account.tokenKeptIn}.</p>
            <button type="button" onClick={() => void signOut()}>Sign out</button>
          </>
        ) : (
          <>
            <p>{account.reason ?? 'Not signed in. Sign in on the service\'s own page, in your browser: design-sync never sees your password.'}</p>
            {notice ? <p className="field-error" role="alert">{windowWords(notice)}</p> : null}
            {account.signingIn && account.signInUrl ? <p>Waiting for your browser. If it did not open, open <a href={account.signInUrl} target="_blank" rel="noreferrer">the service's sign-in page</a>.</p> : null}
            {account.signingIn ? null : (
              <div className="form-actions">
                <button type="button" className="primary" onClick={() => void signIn()} disabled={!signingIn.enabled}
                  aria-describedby={signInNote ? 'sign-in-note' : undefined}>Sign in</button>
                {signInNote ? <span id="sign-in-note" className="action-reason" data-testid="action-reason">{signInNote}</span> : null}
              </div>
            )}
          </>
        )}
      </section>

      <form className="panel" aria-labelledby="service-title" onSubmit={(event) => {
        event.preventDefault();
        // The web address as typed ('' goes back to the derived one): an explicit one is kept when the service changes.
        void update({ serviceUrl, webUrl }, 'The service address');
      }}>
        <h3 id="service-title">Service</h3>
        <div className="field">
          <label htmlFor="service-url">Service address (API)</label>
          <input id="service-url" value={serviceUrl} onChange={(event) => setServiceUrl(event.target.value)} placeholder="https://…" />
          <p className="field-help">Checked before it is saved: a design-sharing service must answer there.</p>
        </div>
        <div className="field">
          <label htmlFor="web-url">Web address (sign-in and design pages)</label>
          <input id="web-url" value={webUrl} onChange={(event) => setWebUrl(event.target.value)} placeholder={settings.webUrlDerived ? settings.webUrl ?? 'https://…' : 'https://…'}
            aria-describedby="web-url-help" />
          <p id="web-url-help" className="field-help">{settings.webUrlDerived && settings.webUrl
            ? <>Derived from the service address: {settings.webUrl}; change it only if your service's web site is elsewhere.</>
            : 'Where you sign in and design pages open. Leave it empty to derive it from the service address.'}</p>
        </div>
        <div className="form-actions"><button type="submit">Save the addresses</button></div>
      </form>

      <form className="panel" aria-labelledby="cache-title" onSubmit={(event) => {
        event.preventDefault();
        void update({ cacheLimitMb: Number(limit) }, 'The cache limit');
      }}>
        <h3 id="cache-title">Offline cache</h3>
        <p>{settings.cacheDesigns.toLocaleString()} design{settings.cacheDesigns === 1 ? '' : 's'} cached; their images take {megabytes(settings.cacheBytes)} of {megabytes(settings.cacheLimitBytes)}.</p>
        <p>{settings.catalogueCheckedAt ? `The catalogue was last checked ${describeAge(settings.catalogueCheckedAt)}` : 'The catalogue has never been pulled'}; it is refreshed every {settings.catalogueRefreshMinutes} minutes while design-sync runs.</p>
        <div className="form-actions">
          <button type="button" onClick={() => void pullCatalogue().then(load)} disabled={pulling || !pull.enabled}
            aria-describedby={pull.enabled ? undefined : 'pull-reason'}>{pulling ? 'Pulling…' : 'Pull the catalogue now'}</button>
          {pull.enabled ? null : <span id="pull-reason" className="action-reason" data-testid="action-reason">{pull.reason}</span>}
        </div>
        {pullProblem ? <p className="field-error" role="alert">The catalogue could not be pulled: {windowWords(pullProblem)}</p> : null}
        <div className="field">
          <label htmlFor="cache-limit">Image cache limit (MB)</label>
          <input id="cache-limit" inputMode="numeric" value={limit} onChange={(event) => setLimit(event.target.value)} />
        </div>
        <div className="form-actions"><button type="submit">Save the limit</button></div>
      </form>

      <section className="panel" aria-labelledby="publishing-title">
        <h3 id="publishing-title">Publishing</h3>
        <label className="checkbox">
          <input type="checkbox" checked={settings.reviewBeforePublishing} aria-describedby="review-help"
            onChange={(event) => void update({ reviewBeforePublishing: event.target.checked }, event.target.checked ? 'Review before publishing' : 'Publishing without review')} />
          {' '}Review files before they are published
        </label>
        <p id="review-help" className="field-help">A published design is public the moment a file lands in it. With this on, files added to a published design&apos;s folder wait in Sync as “ready to publish” until you send them. Drafts are not affected.</p>
      </section>

      <BandwidthPanel settings={settings} update={update} />

      <ProxyPanel settings={settings} update={update} />

      <StartAtLoginPanel settings={settings} update={update} />

      <UpdatesPanel />

      {diagnostics?.logFile ? <EngineLogPanel file={diagnostics.logFile} problem={diagnostics.logProblem} /> : null}
    </section>
  );
}
