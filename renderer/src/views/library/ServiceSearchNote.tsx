import { useIntl } from 'react-intl';
import { useLibrary } from '../../stores/library-store';
import { useServiceSearch } from '../../stores/service-search-store';
import { windowWords } from '../problem-words';
import { useAvailability } from '../use-availability';

const MIN_LENGTH = 2;

/** Whether the service's search was merged into what the library shows, or why it could not be asked, in a few words. */
export function ServiceSearchNote() {
  const intl = useIntl();
  const search = useServiceSearch();
  const query = useLibrary((store) => store.filter.query.trim());
  const asking = useAvailability().can('search-service');
  // Known to be out of reach: said at once, not after a request that cannot answer.
  const text = !asking.enabled && query.length >= MIN_LENGTH
    ? (asking.blocker === 'offline'
      ? intl.formatMessage({ id: 'library.serviceSearch.offline' })
      : intl.formatMessage({ id: 'library.serviceSearch.unavailable' }, { reason: asking.reason }))
    : search.status === 'idle' ? null
    : search.status === 'searching' ? intl.formatMessage({ id: 'library.serviceSearch.searching' })
    // The engine's words for why the service did not answer, as it said them.
    : search.status === 'offline' ? windowWords(search.message)
    : search.found === 0 ? intl.formatMessage({ id: 'library.serviceSearch.nothingMore' })
    : intl.formatMessage({ id: 'library.serviceSearch.included' }, { count: search.found });
  // Always there, empty when there is nothing to say: the toolbar keeps its place, and the live region is heard.
  return <p className="service-search-note" role="status" data-testid="service-search">{text}</p>;
}
