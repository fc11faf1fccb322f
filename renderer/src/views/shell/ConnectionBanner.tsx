import { useLibrary } from '../../stores/library-store';
import { useSync } from '../../stores/sync-store';
import { describeAge } from '../time';

/** Says plainly when the window or the service is out of reach, how old the cache is, and that it still works. */
export function ConnectionBanner() {
  const connection = useSync((store) => store.connection);
  const connectivity = useSync((store) => store.connectivity);
  const checkedAt = useLibrary((store) => store.catalogueCheckedAt);
  if (connection === 'lost') {
    return <p className="banner banner-error" role="alert">The window lost its connection to design-sync. Reconnecting…</p>;
  }
  if (connectivity && !connectivity.online) {
    return (
      <p className="banner" role="status">
        Offline: the service cannot be reached. Everything cached still works{checkedAt ? `; the catalogue was last checked ${describeAge(checkedAt)}` : ''}. Changes are kept and sent when it is back.
      </p>
    );
  }
  return null;
}
