import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatAgeSince } from '../../../../shared/i18n/format';
import { BROWSER_UPDATES_REASON, canCheckForUpdates, canRestartToUpdate, updatesStateWords, type UpdatesView } from '../../../../shared/updates/updates-view';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';

/**
 * Settings' "Updates": the version, the state in words (checking, downloading with its progress, ready, waiting for the
 * files being sent, why the last check failed), where updates come from, and "Check for updates" / "Restart now". In a
 * window served by `design-sync ui` it says that updates come with the desktop app.
 */
export function UpdatesPanel() {
  const intl = useIntl();
  const [updates, setUpdates] = useState<UpdatesView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void contract.request('updates.get', {}).then((outcome) => {
      if (!live) return;
      if (outcome.ok) setUpdates(outcome.value);
      else setProblem(problemWords(outcome.problem));
    });
    const off = contract.on('updates.changed', (view) => setUpdates(view));
    return () => {
      live = false;
      off();
    };
  }, []);
  const ask = (name: 'updates.check' | 'updates.restart') => {
    void contract.request(name, {}).then((outcome) => {
      if (outcome.ok) {
        setUpdates(outcome.value);
        setProblem(null);
      } else {
        setProblem(problemWords(outcome.problem));
      }
    });
  };
  return (
    <section className="panel" aria-labelledby="updates-title">
      <h3 id="updates-title"><FormattedMessage id="updates.title" /></h3>
      {updates === null ? <p role="status">{problem ?? <FormattedMessage id="updates.reading" />}</p> : (
        <>
          <p role="status" data-testid="updates-state">{updatesStateWords(updates, intl)}</p>
          {updates.state === 'downloading' && updates.percent !== null
            ? <progress max={100} value={updates.percent} aria-label={intl.formatMessage({ id: 'updates.downloadingLabel' }, { version: updates.version ?? '' })} />
            : null}
          {/* A browser window's reason is said in the window's language; the desktop app's (a failed check) as its updater said it. */}
          {updates.reason ? <p className={updates.state === 'failed' ? 'field-error' : 'field-help'} data-testid="updates-reason">
            {updates.reason === BROWSER_UPDATES_REASON ? <FormattedMessage id="updates.browserOnly" /> : updates.reason}</p> : null}
          {problem ? <p className="field-error" role="alert">{problem}</p> : null}
          {updates.state === 'unavailable' ? null : (
            <>
              <p className="field-help">{updates.lastCheckedAt
                ? <FormattedMessage id="updates.howLastChecked" values={{ age: formatAgeSince(intl, updates.lastCheckedAt) }} />
                : <FormattedMessage id="updates.how" />}</p>
              {updates.feed ? <p className="field-help"><FormattedMessage id="updates.feed" values={{ feed: updates.feed, channel: updates.channel, code: (chunks) => <code>{chunks}</code> }} /></p> : null}
              <div className="form-actions">
                {canRestartToUpdate(updates)
                  ? <button type="button" className="primary" onClick={() => ask('updates.restart')}><FormattedMessage id="updates.restart" /></button>
                  : null}
                <button type="button" disabled={!canCheckForUpdates(updates)} onClick={() => ask('updates.check')}><FormattedMessage id="updates.check" /></button>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
