import { useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { SettingsView, StartAtLoginView } from '../../../../shared';
import type { MessageId } from '../../../../shared/i18n/messages';
import { contract } from '../../contract/contract';

/**
 * Settings' "Start at login": a checkbox where the window is the desktop app's; where it runs in a browser
 * (design-sync ui) the checkbox is shown greyed out with why, since a browser page cannot start itself at login.
 * The tray changes it too, outside the window: it is read again when the window gets the focus back.
 */
export function StartAtLoginPanel({ settings, update }: { settings: SettingsView; update(changes: { startAtLogin: boolean }, saved: MessageId): Promise<boolean> }) {
  // What the person asked for while the system is told (then what it answered: a refusal shows as the view's problem).
  const [asked, setAsked] = useState<boolean | null>(null);
  // As read when the window came back to the front (the tray may have changed it), until the settings are read anew.
  const [fresh, setFresh] = useState<StartAtLoginView | null>(null);
  useEffect(() => setFresh(null), [settings]);
  useEffect(() => {
    const reread = () => void contract.request('settings.get', {}).then((outcome) => {
      if (outcome.ok) setFresh(outcome.value.startAtLogin);
    });
    window.addEventListener('focus', reread);
    return () => window.removeEventListener('focus', reread);
  }, []);
  const login = fresh ?? settings.startAtLogin;
  const change = (on: boolean) => {
    setAsked(on);
    void update({ startAtLogin: on }, on ? 'startAtLogin.savedOn' : 'startAtLogin.savedOff').finally(() => setAsked(null));
  };
  return (
    <section className="panel" aria-labelledby="start-at-login-title">
      <h3 id="start-at-login-title"><FormattedMessage id="startAtLogin.title" /></h3>
      <label className="checkbox">
        <input type="checkbox" checked={asked ?? login.on} disabled={!login.available || asked !== null} aria-describedby="start-at-login-help"
          aria-busy={asked !== null} onChange={(event) => change(event.target.checked)} /> <FormattedMessage id="startAtLogin.checkbox" />
      </label>
      {/* Unavailable only where the window runs in a browser (design-sync ui): said in the window's language. */}
      <p id="start-at-login-help" className="field-help">{login.available
        ? <FormattedMessage id="startAtLogin.help" />
        : <FormattedMessage id="startAtLogin.desktopOnly" values={{ code: (chunks) => <code>{chunks}</code> }} />}</p>
    </section>
  );
}
