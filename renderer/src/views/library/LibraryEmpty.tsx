import { useLibrary } from '../../stores/library-store';

/** What an empty library means, and the one thing to do about it. */
export function LibraryEmpty() {
  const { filter, pulling, setFilter, pullCatalogue } = useLibrary();
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
      <button type="button" className="primary" onClick={() => void pullCatalogue()} disabled={pulling}>{pulling ? 'Pulling…' : 'Pull the catalogue'}</button>
    </div>
  );
}
