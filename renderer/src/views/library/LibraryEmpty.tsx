import { useId } from 'react';
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
        <p>No design is kept offline yet. Open a design and choose “Keep offline” to have all its files here, without the service.</p>
        <button type="button" onClick={() => setFilter({ kept: false })}>Show every design</button>
      </div>
    );
  }
  if (filter.query || filter.license || filter.kept) {
    return (
      <div className="empty" role="status">
        <p>No {filter.kept ? 'design kept offline' : 'cached design'} matches {filter.query ? <>“{filter.query}”</> : 'this license'}.</p>
        <button type="button" onClick={() => setFilter({ query: '', license: '', kept: false })}>Clear the search and filter</button>
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
