import { contract } from '../../contract/contract';
import { useQueue } from '../../stores/queue-store';
import { useSync } from '../../stores/sync-store';

/** Rule 5: asked once, before anything is uploaded in the person's name. */
export function ContentPolicy() {
  const act = useQueue((store) => store.act);
  return (
    <section className="panel panel-attention" aria-label="Content policy">
      <p>Before anything is uploaded: please confirm that you upload only designs and files you have the right to publish, following the service's content policy. Nothing is sent until you do.</p>
      <button type="button" className="primary" onClick={() => void act(() => contract.request('sync.acceptContentPolicy', { accept: true })).then(() => useSync.getState().load())}>
        I confirm
      </button>
    </section>
  );
}
