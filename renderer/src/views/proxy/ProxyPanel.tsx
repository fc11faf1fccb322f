import { useEffect, useState } from 'react';
import type { ProxyView, SettingsView } from '../../../../shared';

type ProxyChange = { mode?: ProxyView['mode']; host?: string; port?: number; username?: string; password?: string };

const MODES: Array<{ mode: ProxyView['mode']; label: string; help: string }> = [
  { mode: 'system', label: 'System', help: "Your system's proxy settings; HTTPS_PROXY, HTTP_PROXY and NO_PROXY when they are set." },
  { mode: 'none', label: 'None', help: 'Always connect directly.' },
  { mode: 'manual', label: 'Manual', help: 'The proxy below, with a user name and password if it asks for them.' },
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
export function ProxyPanel({ settings, update }: { settings: SettingsView; update(changes: { proxy: ProxyChange }, what: string): Promise<boolean> }) {
  const proxy = settings.proxy;
  const [mode, setMode] = useState(proxy.mode);
  const [host, setHost] = useState(proxy.host);
  const [port, setPort] = useState(proxy.port === null ? '' : String(proxy.port));
  const [username, setUsername] = useState(proxy.username);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
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
      if (host.trim() === '') {
        setProblem('Give the proxy’s host: a name such as proxy.example or an address.');
        return;
      }
      if (number === null) {
        setProblem('The proxy’s port must be a whole number from 1 to 65535, such as 3128 or 8080.');
        return;
      }
      Object.assign(change, { host: host.trim(), port: number, username: username.trim() });
      if (password !== '') change.password = password;
    }
    setProblem(null);
    if (await update({ proxy: change }, 'The proxy')) setPassword('');
  };
  const inUse = proxy.problem
    ? `The proxy setting cannot be used: ${proxy.problem}`
    : proxy.inUse ? `The service is reached through ${proxy.inUse}, from ${proxy.inUseFrom}.` : 'The service is reached directly, without a proxy.';

  return (
    <form className="panel" aria-labelledby="proxy-title" onSubmit={(event) => {
      event.preventDefault();
      void save();
    }}>
      <h3 id="proxy-title">Proxy</h3>
      <fieldset className="field">
        <legend>Connect to the service</legend>
        {MODES.map((one) => (
          <label key={one.mode} className="checkbox">
            <input type="radio" name="proxy-mode" value={one.mode} checked={mode === one.mode} onChange={() => setMode(one.mode)} aria-describedby={`proxy-${one.mode}-help`} />
            {' '}{one.label}
            <span id={`proxy-${one.mode}-help`} className="field-help"> — {one.help}</span>
          </label>
        ))}
      </fieldset>
      <p className="field-help" role="status" data-testid="proxy-in-use">{inUse}</p>
      {mode === 'manual' ? (
        <>
          <div className="field">
            <label htmlFor="proxy-host">Host</label>
            <input id="proxy-host" value={host} placeholder="proxy.example" autoComplete="off" spellCheck={false}
              aria-invalid={problem?.includes('host') ? true : undefined} onChange={(event) => setHost(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="proxy-port">Port</label>
            <input id="proxy-port" inputMode="numeric" value={port} placeholder="3128"
              aria-invalid={problem?.includes('port') ? true : undefined} onChange={(event) => setPort(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="proxy-username">User name (if the proxy asks for one)</label>
            <input id="proxy-username" value={username} autoComplete="off" spellCheck={false} onChange={(event) => setUsername(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="proxy-password">Password</label>
            <input id="proxy-password" type="password" value={password} autoComplete="new-password" aria-describedby="proxy-password-help"
              placeholder={proxy.passwordSet ? 'Kept — type a new one to change it' : ''} onChange={(event) => setPassword(event.target.value)} />
            <p id="proxy-password-help" className="field-help">Kept like your sign-in, never shown again.{proxy.passwordSet ? ' ' : ''}
              {proxy.passwordSet ? <button type="button" onClick={() => void update({ proxy: { password: '' } }, 'Removing the proxy password')}>Remove the password</button> : null}
            </p>
          </div>
        </>
      ) : null}
      {problem ? <p className="field-error" role="alert">{problem}</p> : null}
      <div className="form-actions"><button type="submit">Save the proxy</button></div>
    </form>
  );
}
