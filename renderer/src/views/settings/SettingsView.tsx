import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatAgeSince } from '../../../../shared/i18n/format';
import { useAccount } from '../../stores/account-store';
import { useLibrary } from '../../stores/library-store';
import { useSettings } from '../../stores/settings-store';
import { windowWords } from '../problem-words';
import { accountReasonWords, tokenKeptInWords } from '../shell/account-reason';
import { ProblemBanner } from '../shell/ProblemBanner';
import { BandwidthPanel } from '../bandwidth/BandwidthPanel';
import { ProxyPanel } from '../proxy/ProxyPanel';
import { StartAtLoginPanel } from '../start-at-login/StartAtLoginPanel';
import { UpdatesPanel } from '../updates/UpdatesPanel';
import { useAvailability } from '../use-availability';
import { LanguagePanel } from './LanguagePanel';

/** Megabytes as the cache's limit is set: "12.5 MB" below 10 MB, "500 MB" above ("12,5 MB" in German). */
function useMegabytes(): (bytes: number) => string {
  const intl = useIntl();
  return (bytes) => {
    const digits = bytes < 10 * 1024 * 1024 ? 1 : 0;
    const value = intl.formatNumber(bytes / 1024 / 1024, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    return intl.formatMessage({ id: 'settings.cache.megabytes' }, { value });
  };
}

/** Where the engine log is, to attach to a bug report: its path, selectable, and a button that copies it. */
function EngineLogPanel({ file, problem }: { file: string; problem: string | null }) {
  const [copied, setCopied] = useState<'settings.diagnostics.copied' | 'settings.diagnostics.copyFailed' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(file).then(
      () => setCopied('settings.diagnostics.copied'),
      () => setCopied('settings.diagnostics.copyFailed'),
    );
  };
  return (
    <section className="panel" aria-labelledby="log-title">
      <h3 id="log-title"><FormattedMessage id="settings.diagnostics.title" /></h3>
      <p>
        <FormattedMessage id="settings.diagnostics.log" values={{ file, code: (chunks) => <code>{chunks}</code> }} /> <button type="button" onClick={copy}><FormattedMessage id="settings.diagnostics.copy" /></button> {copied ? <span role="status"><FormattedMessage id={copied} /></span> : null}
      </p>
      {problem ? <p className="field-error" role="alert">{problem}</p> : null}
    </section>
  );
}

/** The account (sign-in on the service's own page), the service's address, the cache (its size, limit and age), the language. */
export function SettingsView() {
  const intl = useIntl();
  const megabytes = useMegabytes();
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
  if (!settings || !account) return <section className="settings"><p className="empty" role="status"><FormattedMessage id="settings.loading" /></p></section>;
  const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;
  const user = account.user;
  const signInUrl = account.signInUrl;
  const addressPlaceholder = intl.formatMessage({ id: 'settings.service.addressPlaceholder' });
  const minutes = settings.catalogueRefreshMinutes;
  return (
    <section className="settings" aria-labelledby="settings-title">
      <h2 id="settings-title"><FormattedMessage id="settings.title" /></h2>
      <ProblemBanner problem={problem} />
      {saved ? <p className="banner banner-note" role="status"><FormattedMessage id={saved} /></p> : null}
      {diagnostics?.notices.map((notice) => <p key={notice} className="banner" role="status">{notice}</p>)}

      <section className="panel" aria-labelledby="account-title">
        <h3 id="account-title"><FormattedMessage id="settings.account.title" /></h3>
        {account.status === 'signed-in' ? (
          <>
            <p>{!user ? <FormattedMessage id="settings.account.signedIn" />
              : user.realName ? <FormattedMessage id="settings.account.signedInAsWithRealName" values={{ name: user.screenName, realName: user.realName, strong }} />
                : <FormattedMessage id="settings.account.signedInAs" values={{ name: user.screenName, strong }} />}</p>
            <p className="field-help"><FormattedMessage id="settings.account.tokenKept" values={{ where: tokenKeptInWords(account, intl) }} /></p>
            <button type="button" onClick={() => void signOut()}><FormattedMessage id="settings.account.signOut" /></button>
          </>
        ) : (
          <>
            <p>{accountReasonWords(account, intl) ?? <FormattedMessage id="settings.account.notSignedIn" />}</p>
            {notice ? <p className="field-error" role="alert">{windowWords(notice)}</p> : null}
            {account.signingIn && signInUrl ? <p><FormattedMessage id="settings.account.waitingForBrowser" values={{ link: (chunks) => <a href={signInUrl} target="_blank" rel="noreferrer">{chunks}</a> }} /></p> : null}
            {account.signingIn ? null : (
              <div className="form-actions">
                <button type="button" className="primary" onClick={() => void signIn()} disabled={!signingIn.enabled}
                  aria-describedby={signInNote ? 'sign-in-note' : undefined}><FormattedMessage id="settings.account.signIn" /></button>
                {signInNote ? <span id="sign-in-note" className="action-reason" data-testid="action-reason">{signInNote}</span> : null}
              </div>
            )}
          </>
        )}
      </section>

      <LanguagePanel settings={settings} update={update} />

      <form className="panel" aria-labelledby="service-title" onSubmit={(event) => {
        event.preventDefault();
        // The web address as typed ('' goes back to the derived one): an explicit one is kept when the service changes.
        void update({ serviceUrl, webUrl }, 'settings.service.saved');
      }}>
        <h3 id="service-title"><FormattedMessage id="settings.service.title" /></h3>
        <div className="field">
          <label htmlFor="service-url"><FormattedMessage id="settings.service.address" /></label>
          <input id="service-url" value={serviceUrl} onChange={(event) => setServiceUrl(event.target.value)} placeholder={addressPlaceholder} />
          <p className="field-help"><FormattedMessage id="settings.service.addressHelp" /></p>
        </div>
        <div className="field">
          <label htmlFor="web-url"><FormattedMessage id="settings.service.webAddress" /></label>
          <input id="web-url" value={webUrl} onChange={(event) => setWebUrl(event.target.value)} placeholder={settings.webUrlDerived ? settings.webUrl ?? addressPlaceholder : addressPlaceholder}
            aria-describedby="web-url-help" />
          <p id="web-url-help" className="field-help">{settings.webUrlDerived && settings.webUrl
            ? <FormattedMessage id="settings.service.webDerived" values={{ url: settings.webUrl }} />
            : <FormattedMessage id="settings.service.webHelp" />}</p>
        </div>
        <div className="form-actions"><button type="submit"><FormattedMessage id="settings.service.save" /></button></div>
      </form>

      <form className="panel" aria-labelledby="cache-title" onSubmit={(event) => {
        event.preventDefault();
        void update({ cacheLimitMb: Number(limit) }, 'settings.cache.saved');
      }}>
        <h3 id="cache-title"><FormattedMessage id="settings.cache.title" /></h3>
        <p><FormattedMessage id="settings.cache.usage" values={{ count: settings.cacheDesigns, used: megabytes(settings.cacheBytes), limit: megabytes(settings.cacheLimitBytes) }} /></p>
        <p>{settings.catalogueCheckedAt
          ? <FormattedMessage id="settings.cache.checked" values={{ age: formatAgeSince(intl, settings.catalogueCheckedAt), minutes }} />
          : <FormattedMessage id="settings.cache.neverPulled" values={{ minutes }} />}</p>
        <div className="form-actions">
          <button type="button" onClick={() => void pullCatalogue().then(load)} disabled={pulling || !pull.enabled}
            aria-describedby={pull.enabled ? undefined : 'pull-reason'}><FormattedMessage id={pulling ? 'settings.cache.pulling' : 'settings.cache.pullNow'} /></button>
          {pull.enabled ? null : <span id="pull-reason" className="action-reason" data-testid="action-reason">{pull.reason}</span>}
        </div>
        {pullProblem ? <p className="field-error" role="alert"><FormattedMessage id="settings.cache.pullFailed" values={{ problem: windowWords(pullProblem) }} /></p> : null}
        <div className="field">
          <label htmlFor="cache-limit"><FormattedMessage id="settings.cache.limit" /></label>
          <input id="cache-limit" inputMode="numeric" value={limit} onChange={(event) => setLimit(event.target.value)} />
        </div>
        <div className="form-actions"><button type="submit"><FormattedMessage id="settings.cache.save" /></button></div>
      </form>

      <section className="panel" aria-labelledby="publishing-title">
        <h3 id="publishing-title"><FormattedMessage id="settings.publishing.title" /></h3>
        <label className="checkbox">
          <input type="checkbox" checked={settings.reviewBeforePublishing} aria-describedby="review-help"
            onChange={(event) => void update({ reviewBeforePublishing: event.target.checked }, event.target.checked ? 'settings.publishing.savedOn' : 'settings.publishing.savedOff')} /> <FormattedMessage id="settings.publishing.review" />
        </label>
        <p id="review-help" className="field-help"><FormattedMessage id="settings.publishing.reviewHelp" /></p>
      </section>

      <BandwidthPanel settings={settings} update={update} />

      <ProxyPanel settings={settings} update={update} />

      <StartAtLoginPanel settings={settings} update={update} />

      <UpdatesPanel />

      {diagnostics?.logFile ? <EngineLogPanel file={diagnostics.logFile} problem={diagnostics.logProblem} /> : null}
    </section>
  );
}
