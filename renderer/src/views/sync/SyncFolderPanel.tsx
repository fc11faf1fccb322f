import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SyncView as SyncState } from '../../../../shared';
import { wordedOr } from '../../../../shared/i18n/engine-words';
import { PAUSE_MORNING_HOUR, syncReasonWords } from '../../../../shared/sync/sync-state-words';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { useSync } from '../../stores/sync-store';
import { useAvailability } from '../use-availability';

/** The overall state in words, the sync folder (or choosing one), and syncing now, starting, stopping, pausing. */
export function SyncFolderPanel({ sync }: { sync: SyncState }) {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  const [path, setPath] = useState('');
  const [syncingNow, setSyncingNow] = useState(false);
  // A full pass asks the service at once: off while it cannot be reached or nobody is signed in, saying why.
  const syncing = useAvailability().can('sync-now');
  const syncReasonId = useId();
  const syncNow = () => {
    setSyncingNow(true);
    void act(() => contract.request('sync.now', {})).then(refresh).finally(() => setSyncingNow(false));
  };
  const refresh = () => void useSync.getState().load();
  // What the state means, made here from its code and facts in the window's language (never the engine's English).
  const reason = syncReasonWords(sync, intl);
  const morning = intl.formatTime(new Date(2000, 0, 1, PAUSE_MORNING_HOUR), { hour: 'numeric', minute: '2-digit' });
  return (
    <section className="panel" aria-label={intl.formatMessage({ id: 'sync.folder.label' })}>
      <p className={`sync-state status-${sync.state}`}><strong>{reason ?? <FormattedMessage id="sync.folder.inStep" />}</strong></p>
      {sync.folder ? (
        <>
          <p><FormattedMessage id="sync.folder.path" values={{ folder: sync.folder, code: (chunks) => <code>{chunks}</code> }} /></p>
          <div className="form-actions">
            <button type="button" onClick={syncNow} disabled={syncingNow || !syncing.enabled} aria-busy={syncingNow}
              aria-describedby={syncing.enabled ? undefined : syncReasonId}
              title={intl.formatMessage({ id: 'sync.folder.syncNowHelp' })}>
              <FormattedMessage id={syncingNow ? 'sync.folder.syncing' : 'sync.folder.syncNow'} />
            </button>
            {sync.running
              ? <button type="button" onClick={() => void act(() => contract.request('sync.stop', {})).then(refresh)}><FormattedMessage id="sync.folder.stop" /></button>
              : <button type="button" className="primary" onClick={() => void act(() => contract.request('sync.start', {})).then(refresh)}><FormattedMessage id="sync.folder.start" /></button>}
            {sync.queuePaused
              ? <button type="button" onClick={() => void act(() => contract.request('queue.resume', { target: 'all' })).then(refresh)}><FormattedMessage id="sync.folder.resume" /></button>
              : <>
                <button type="button" onClick={() => void act(() => contract.request('queue.pause', { target: 'all' })).then(refresh)}><FormattedMessage id="sync.folder.pause" /></button>
                {/* Timed pauses resume by themselves: nothing to remember to undo. */}
                <button type="button" onClick={() => void act(() => contract.request('queue.pause', { target: 'all', for: 'hour' })).then(refresh)}><FormattedMessage id="sync.folder.pauseHours" values={{ hours: 1 }} /></button>
                <button type="button" onClick={() => void act(() => contract.request('queue.pause', { target: 'all', for: 'tomorrow' })).then(refresh)}
                  title={intl.formatMessage({ id: 'sync.folder.pauseTomorrowHelp' }, { time: morning })}>
                  <FormattedMessage id="sync.folder.pauseTomorrow" values={{ time: morning }} />
                </button>
              </>}
          </div>
          {syncing.enabled ? null : <p id={syncReasonId} className="action-reason" data-testid="action-reason">{syncing.reason}</p>}
          {sync.watcherWarning ? <p className="own-note">{wordedOr(intl, sync.watcherWarningWords, sync.watcherWarning)}</p> : null}
        </>
      ) : (
        <form className="form-actions" aria-label={intl.formatMessage({ id: 'sync.folder.chooseLabel' })} onSubmit={(event) => {
          event.preventDefault();
          void act(() => contract.request('sync.chooseFolder', { path })).then(refresh);
        }}>
          <label htmlFor="sync-folder-path"><FormattedMessage id="sync.folder.pathLabel" /></label>
          <input id="sync-folder-path" value={path} onChange={(event) => setPath(event.target.value)} placeholder={intl.formatMessage({ id: 'sync.folder.pathPlaceholder' })} />
          <button type="submit" className="primary"><FormattedMessage id="sync.folder.choose" /></button>
        </form>
      )}
    </section>
  );
}
