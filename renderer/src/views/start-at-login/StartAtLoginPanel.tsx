import { useState } from 'react';
import type { SettingsView } from '../../../../shared';

/**
 * Settings' "Start at login": a checkbox where the window is the desktop app's; where it runs in a browser
 * (design-sync ui) the checkbox is shown greyed out with why, since a browser page cannot start itself at login.
 */
export function StartAtLoginPanel({ settings, update }: { settings: SettingsView; update(changes: { startAtLogin: boolean }, what: string): Promise<boolean> }) {
  const login = settings.startAtLogin;
  // What the person asked for while the system is told (then what it answered: a refusal shows as the view's problem).
  const [asked, setAsked] = useState<boolean | null>(null);
  const change = (on: boolean) => {
    setAsked(on);
    void update({ startAtLogin: on }, on ? 'Start at login' : 'Not starting at login').finally(() => setAsked(null));
  };
  return (
    <section className="panel" aria-labelledby="start-at-login-title">
      <h3 id="start-at-login-title">When you log in</h3>
      <label className="checkbox">
        <input type="checkbox" checked={asked ?? login.on} disabled={!login.available || asked !== null} aria-describedby="start-at-login-help"
          aria-busy={asked !== null} onChange={(event) => change(event.target.checked)} />
        {' '}Start design-sync when you log in
      </label>
      <p id="start-at-login-help" className="field-help">{login.available
        ? 'It starts in the tray, without a window, and keeps your sync folder in step; open it from the tray. Turned off, nothing syncs after a restart until you open design-sync.'
        : login.unavailableReason}</p>
    </section>
  );
}
