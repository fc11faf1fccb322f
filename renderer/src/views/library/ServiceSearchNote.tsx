import { useLibrary } from '../../stores/library-store';
import { useServiceSearch } from '../../stores/service-search-store';
import { windowWords } from '../problem-words';
import { useAvailability } from '../use-availability';

const MIN_LENGTH = 2;

/** Whether the service's search was merged into what the library shows, or why it could not be asked, in a few words. */
export function ServiceSearchNote() {
  const search = useServiceSearch();
  const query = useLibrary((store) => store.filter.query.trim());
  const asking = useAvailability().can('search-service');
  // Known to be out of reach: said at once, not after a request that cannot answer.
  const text = !asking.enabled && query.length >= MIN_LENGTH
    ? (asking.blocker === 'offline' ? 'Only the cached designs were searched: the service cannot be reached now.' : `Only the cached designs were searched. ${asking.reason}`)
    : search.status === 'idle' ? null
    : search.status === 'searching' ? 'Searching the service too…'
    : search.status === 'offline' ? windowWords(search.message)
    : search.found === 0 ? 'The service found nothing more.'
    : `Includes the service's ${search.found} best match${search.found === 1 ? '' : 'es'}.`;
  // Always there, empty when there is nothing to say: the toolbar keeps its place, and the live region is heard.
  return <p className="service-search-note" role="status" data-testid="service-search">{text}</p>;
}
