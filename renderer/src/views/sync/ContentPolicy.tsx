import { FormattedMessage, useIntl } from 'react-intl';
import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { useSync } from '../../stores/sync-store';

/** Rule 5: asked once, before anything is uploaded in the person's name. */
export function ContentPolicy() {
  const intl = useIntl();
  const act = useQueue((store) => store.act);
  return (
    <section className="panel panel-attention" aria-label={intl.formatMessage({ id: 'sync.policy.label' })}>
      <p><FormattedMessage id="sync.policy.text" /></p>
      <button type="button" className="primary" onClick={() => void act(() => contract.request('sync.acceptContentPolicy', { accept: true })).then(() => useSync.getState().load())}>
        <FormattedMessage id="sync.policy.confirm" />
      </button>
    </section>
  );
}
