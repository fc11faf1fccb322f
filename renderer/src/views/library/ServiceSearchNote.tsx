import { useServiceSearch } from '../../stores/service-search-store';

/** Whether the service's search was merged into what the library shows, in a few words. */
export function ServiceSearchNote() {
  const search = useServiceSearch();
  if (search.status === 'idle') return null;
  const text = search.status === 'searching' ? 'Searching the service too…'
    : search.status === 'offline' ? search.message
    : search.found === 0 ? 'The service found nothing more.'
    : `Includes the service's ${search.found} best match${search.found === 1 ? '' : 'es'}.`;
  return <p className="service-search-note" role="status" data-testid="service-search">{text}</p>;
}
