import { useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageId } from '../../../../shared/i18n/messages';
import { useSettings } from '../../stores/settings-store';

/**
 * The one-time question, once a sync folder is chosen, in the desktop app: start design-sync when the person logs in?
 * A card in the Sync view, never a modal; either answer is remembered by the profile and it is not asked again (the
 * setting stays in Settings and the tray). Where the window runs in a browser it is not asked: the browser cannot.
 */
export function StartAtLoginQuestion() {
  const settings = useSettings((store) => store.settings);
  const load = useSettings((store) => store.load);
  const update = useSettings((store) => store.update);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [done, setDone] = useState<MessageId | null>(null);
  // Read afresh: the tray or Settings may have answered it since the settings were last read.
  useEffect(() => void load(), [load]);
  const question = settings?.startAtLogin;
  if (done) return <p className="panel start-at-login-question" role="status"><FormattedMessage id={done} /></p>;
  if (!question || !question.available || question.asked) return null;
  const answer = (changes: { startAtLogin: true } | { startAtLoginAsked: true }, saved: MessageId, after: MessageId) => {
    setBusy(true);
    setFailed(null);
    void update(changes, saved).then((saved) => {
      if (saved) setDone(after);
      else setFailed(useSettings.getState().problem);
    }).finally(() => setBusy(false));
  };
  return (
    <section className="panel start-at-login-question" aria-labelledby="start-at-login-question-title">
      <h3 id="start-at-login-question-title"><FormattedMessage id="startAtLogin.question.title" /></h3>
      <p><FormattedMessage id="startAtLogin.question.body" /></p>
      {failed ? <p className="field-error" role="alert">{failed}</p> : null}
      <div className="form-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => answer({ startAtLogin: true }, 'startAtLogin.savedOn', 'startAtLogin.question.doneOn')}><FormattedMessage id="startAtLogin.question.yes" /></button>
        <button type="button" disabled={busy} onClick={() => answer({ startAtLoginAsked: true }, 'startAtLogin.question.answerSaved', 'startAtLogin.question.doneOff')}><FormattedMessage id="startAtLogin.question.notNow" /></button>
      </div>
    </section>
  );
}
