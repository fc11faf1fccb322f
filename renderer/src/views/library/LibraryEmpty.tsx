import { useId } from 'react';
import { useLibrary } from '../../stores/library-store';
import { useAvailability } from '../use-availability';

/** What an empty library means, and the one thing to do about it (or why it cannot be done now). */
export function LibraryEmpty() {
  const { filter, pulling, setFilter, pullCatalogue } = useLibrary();
  const pull = useAvailability().can('pull-catalogue');
  const reasonId = useId();
  if (filter.query || filter.license) {
    return (
      <div className="empty" role="status">
        <p>No cached design matches {filter.query ? <>“{filter.query}”</> : 'this license'}.</p>
        <button type="button" onClick={() => setFilter({ query: '', license: '' })}>Clear the search and filter</button>
      </div>
    );
  }
  return (
    <div className="empty" role="status">
      <p>No designs are cached yet. Pull the catalogue once to browse it, even offline.</p>
      <button type="button" className="primary" onClick={() => void pullCatalogue()} disabled={pulling || !pull.enabled}
        aria-describedby={pull.enabled ? undefined : reasonId}>{pulling ? 'Pulling…' : 'Pull the catalogue'}</button>
      {pull.enabled ? null : <p id={reasonId} className="action-reason" data-testid="action-reason">{pull.reason}</p>}
    </div>
  );
}
