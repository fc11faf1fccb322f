import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ProxyView, SettingsView } from '../../../../shared';
import type { MessageId } from '../../../../shared/i18n/messages';

type ProxyChange = { mode?: ProxyView['mode']; host?: string; port?: number; username?: string; password?: string };

const MODES: Array<{ mode: ProxyView['mode']; label: MessageId; help: MessageId }> = [
  { mode: 'system', label: 'proxy.mode.system', help: 'proxy.mode.systemHelp' },
  { mode: 'none', label: 'proxy.mode.none', help: 'proxy.mode.noneHelp' },
  { mode: 'manual', label: 'proxy.mode.manual', help: 'proxy.mode.manualHelp' },
];

/** What the person typed as a port: a whole number from 1 to 65535, or null when it is not one. */
function portOf(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,5}$/.test(trimmed) && Number(trimmed) >= 1 && Number(trimmed) <= 65_535 ? Number(trimmed) : null;
}

/**
 * Settings' "Proxy": System (the default), None, or Manual with host, port, user name and password. The password is
 * write-only: the engine never sends it back, the field only says whether one is kept. Saved and used at once; the
 * line under the choice says which proxy the service is reached through now.
 */
export function ProxyPanel({ settings, update }: { settings: SettingsView; update(changes: { proxy: ProxyChange }, saved: MessageId): Promise<boolean> }) {
  const intl = useIntl();
  const proxy = settings.proxy;
  const [mode, setMode] = useState(proxy.mode);
  const [host, setHost] = useState(proxy.host);
  const [port, setPort] = useState(proxy.port === null ? '' : String(proxy.port));
  const [username, setUsername] = useState(proxy.username);
  const [password, setPassword] = useState('');
  const [wrong, setWrong] = useState<'host' | 'port' | null>(null);
  useEffect(() => {
    setMode(proxy.mode);
    setHost(proxy.host);
    setPort(proxy.port === null ? '' : String(proxy.port));
    setUsername(proxy.username);
  }, [proxy.mode, proxy.host, proxy.port, proxy.username]);

  const save = async () => {
    const change: ProxyChange = { mode };
    if (mode === 'manual') {
      const number = portOf(port);
      const refused = host.trim() === '' ? 'host' : number === null ? 'port' : null;
      setWrong(refused);
      if (refused) return;
      Object.assign(change, { host: host.trim(), port: number, username: username.trim() });
      if (password !== '') change.password = password;
    }
    setWrong(null);
    if (await update({ proxy: change }, 'proxy.saved')) setPassword('');
  };
  // The proxy in use and where it came from are the engine's words (its settings, the environment, the system's).
  const inUse = proxy.problem
    ? <FormattedMessage id="proxy.inUse.problem" values={{ problem: proxy.problem }} />
    : proxy.inUse ? <FormattedMessage id="proxy.inUse.through" values={{ proxy: proxy.inUse, from: proxy.inUseFrom }} /> : <FormattedMessage id="proxy.inUse.direct" />;

  return (
    <form className="panel" aria-labelledby="proxy-title" onSubmit={(event) => {
      event.preventDefault();
      void save();
    }}>
      <h3 id="proxy-title"><FormattedMessage id="proxy.title" /></h3>
      <fieldset className="field">
        <legend><FormattedMessage id="proxy.legend" /></legend>
        {MODES.map((one) => (
          <label key={one.mode} className="checkbox">
            <input type="radio" name="proxy-mode" value={one.mode} checked={mode === one.mode} onChange={() => setMode(one.mode)} aria-describedby={`proxy-${one.mode}-help`} /> <FormattedMessage id={one.label} /> <span id={`proxy-${one.mode}-help`} className="field-help"><FormattedMessage id={one.help} /></span>
          </label>
        ))}
      </fieldset>
      <p className="field-help" role="status" data-testid="proxy-in-use">{inUse}</p>
      {mode === 'manual' ? (
        <>
          <div className="field">
            <label htmlFor="proxy-host"><FormattedMessage id="proxy.host" /></label>
            <input id="proxy-host" value={host} placeholder={intl.formatMessage({ id: 'proxy.hostPlaceholder' })} autoComplete="off" spellCheck={false}
              aria-invalid={wrong === 'host' ? true : undefined} onChange={(event) => setHost(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="proxy-port"><FormattedMessage id="proxy.port" /></label>
            <input id="proxy-port" inputMode="numeric" value={port} placeholder={intl.formatMessage({ id: 'proxy.portPlaceholder' })}
              aria-invalid={wrong === 'port' ? true : undefined} onChange={(event) => setPort(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="proxy-username"><FormattedMessage id="proxy.username" /></label>
            <input id="proxy-username" value={username} autoComplete="off" spellCheck={false} onChange={(event) => setUsername(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="proxy-password"><FormattedMessage id="proxy.password" /></label>
            <input id="proxy-password" type="password" value={password} autoComplete="new-password" aria-describedby="proxy-password-help"
              placeholder={proxy.passwordSet ? intl.formatMessage({ id: 'proxy.passwordKept' }) : undefined} onChange={(event) => setPassword(event.target.value)} />
            <p id="proxy-password-help" className="field-help"><FormattedMessage id="proxy.passwordHelp" />
              {proxy.passwordSet ? <> <button type="button" onClick={() => void update({ proxy: { password: '' } }, 'proxy.passwordRemoved')}><FormattedMessage id="proxy.removePassword" /></button></> : null}
            </p>
          </div>
        </>
      ) : null}
      {wrong ? <p className="field-error" role="alert"><FormattedMessage id={wrong === 'host' ? 'proxy.hostMissing' : 'proxy.portInvalid'} /></p> : null}
      <div className="form-actions"><button type="submit"><FormattedMessage id="proxy.save" /></button></div>
    </form>
  );
}
