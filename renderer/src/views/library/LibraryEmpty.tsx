import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLibrary } from '../../stores/library-store';
import { useAvailability } from '../use-availability';

/** What an empty library means, and the one thing to do about it (or why it cannot be done now). */
export function LibraryEmpty() {
  const { filter, pulling, setFilter, pullCatalogue } = useLibrary();
  const pull = useAvailability().can('pull-catalogue');
  const reasonId = useId();
  if (filter.kept && !filter.query && !filter.license) {
    return (
      <div className="empty" role="status">
        <p><FormattedMessage id="library.empty.keptNone" /></p>
        <button type="button" onClick={() => setFilter({ kept: false })}><FormattedMessage id="library.empty.showAll" /></button>
      </div>
    );
  }
  if (filter.query || filter.license || filter.kept) {
    return (
      <div className="empty" role="status">
        <p>
          <FormattedMessage id="library.empty.noMatch"
            values={{ scope: filter.kept ? 'kept' : 'cached', by: filter.query ? 'query' : 'license', query: filter.query }} />
        </p>
        <button type="button" onClick={() => setFilter({ query: '', license: '', kept: false })}><FormattedMessage id="library.empty.clear" /></button>
      </div>
    );
  }
  return (
    <div className="empty" role="status">
      <p><FormattedMessage id="library.empty.none" /></p>
      <button type="button" className="primary" onClick={() => void pullCatalogue()} disabled={pulling || !pull.enabled}
        aria-describedby={pull.enabled ? undefined : reasonId}>
        <FormattedMessage id={pulling ? 'library.empty.pulling' : 'library.empty.pull'} />
      </button>
      {pull.enabled ? null : <p id={reasonId} className="action-reason" data-testid="action-reason">{pull.reason}</p>}
    </div>
  );
}
