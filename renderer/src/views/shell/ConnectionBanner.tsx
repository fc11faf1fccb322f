import { connectivityWords } from '../../../../shared/sync/sync-state-words';
import { useLibrary } from '../../stores/library-store';
import { useSync } from '../../stores/sync-store';
import { describeAge } from '../time';

/**
 * Says plainly when the window or the service is out of reach, how old the cache is, and that it still works: the
 * service's part in the same words as the status pill and the Sync view (connectivityWords).
 */
export function ConnectionBanner() {
  const connection = useSync((store) => store.connection);
  const connectivity = useSync((store) => store.connectivity);
  const sync = useSync((store) => store.sync);
  const checkedAt = useLibrary((store) => store.catalogueCheckedAt);
  if (connection === 'lost') {
    return <p className="banner banner-error" role="alert">The window lost its connection to design-sync. Reconnecting…</p>;
  }
  const offline = connectivity ? !connectivity.online : sync?.reasonCode === 'service-unreachable';
  if (offline) {
    return (
      <p className="banner" role="status">
        Offline: {connectivityWords(sync?.serviceUrl ?? null)} Everything cached still works{checkedAt ? `; the catalogue was last checked ${describeAge(checkedAt)}` : ''}. Changes are kept and sent when it is back.
      </p>
    );
  }
  return null;
}
