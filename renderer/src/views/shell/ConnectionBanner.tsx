import { FormattedMessage, useIntl } from 'react-intl';
import { formatAgeSince } from '../../../../shared/i18n/format';
import { connectivityWords } from '../../../../shared/sync/sync-state-words';
import { useLibrary } from '../../stores/library-store';
import { useSync } from '../../stores/sync-store';

/**
 * Says plainly when the window or the service is out of reach, how old the cache is, and that it still works: the
 * service's part in the same words as the status pill and the Sync view (connectivityWords).
 */
export function ConnectionBanner() {
  const intl = useIntl();
  const connection = useSync((store) => store.connection);
  const connectivity = useSync((store) => store.connectivity);
  const sync = useSync((store) => store.sync);
  const checkedAt = useLibrary((store) => store.catalogueCheckedAt);
  if (connection === 'lost') {
    return <p className="banner banner-error" role="alert"><FormattedMessage id="shell.connection.lost" /></p>;
  }
  const offline = connectivity ? !connectivity.online : sync?.reasonCode === 'service-unreachable';
  if (offline) {
    const why = connectivityWords(sync?.serviceUrl ?? null, intl);
    return (
      <p className="banner" role="status">
        {checkedAt
          ? <FormattedMessage id="shell.connection.offline" values={{ why, age: formatAgeSince(intl, checkedAt) }} />
          : <FormattedMessage id="shell.connection.offlineNeverChecked" values={{ why }} />}
      </p>
    );
  }
  return null;
}
