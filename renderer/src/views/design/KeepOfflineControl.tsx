import { useEffect, useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DesignDetail } from '../../../../shared';
import { useKept } from '../../stores/kept-store';
import { keptOfflineWords } from '../../../../shared/files/kept-offline-words';

/**
 * "Keep offline" on a design's page: all its images and documents downloaded and never evicted, for a workshop without
 * internet. Kept, it says where its files are (downloading with a progress bar, waiting for the service, ready with
 * the space taken, or what stopped it) and offers to stop keeping it.
 */
export function KeepOfflineControl({ detail }: { detail: DesignDetail }) {
  const intl = useIntl();
  const designId = detail.card.id;
  const live = useKept((store) => store.designs?.[designId]);
  const loaded = useKept((store) => store.designs !== null);
  const busy = useKept((store) => store.busy.includes(designId));
  const problem = useKept((store) => store.problems[designId]);
  const load = useKept((store) => store.load);
  const keep = useKept((store) => store.keep);
  const release = useKept((store) => store.release);
  const noteId = useId();
  useEffect(() => {
    if (!loaded) void load();
  }, [loaded, load]);
  // What the page was read with, until the live list says more.
  const kept = loaded ? live ?? null : detail.kept;
  const fileCount = detail.documents.length + detail.images.length;
  const progress = kept?.state === 'downloading' && kept.filesTotal > 0
    ? kept.filesHere + (kept.current?.bytesTotal ? kept.current.bytesDone / kept.current.bytesTotal : 0)
    : null;
  return (
    <section className="keep-offline" aria-labelledby={`${noteId}-title`}>
      <h3 id={`${noteId}-title`} className="visually-hidden"><FormattedMessage id="design.kept.title" /></h3>
      {kept ? (
        <>
          <p className="keep-offline-state" role="status" data-testid="kept-state" data-state={kept.state}>{keptOfflineWords(kept, intl)}</p>
          {progress !== null ? <progress max={kept.filesTotal} value={progress} aria-label={intl.formatMessage({ id: 'design.kept.progressLabel' }, { name: detail.card.name })} /> : null}
          <button type="button" disabled={busy} onClick={() => void release(designId)}><FormattedMessage id="design.kept.release" /></button>
        </>
      ) : (
        <>
          <button type="button" disabled={busy} aria-describedby={noteId} onClick={() => void keep(designId)}><FormattedMessage id="design.kept.keep" /></button>
          <p id={noteId} className="action-reason">
            {fileCount === 0 ? <FormattedMessage id="design.kept.noteEmpty" /> : <FormattedMessage id="design.kept.note" values={{ count: fileCount }} />}
          </p>
        </>
      )}
      {/* The engine's words for what stopped it, as it said them. */}
      {problem ? <p className="action-reason" role="alert">{problem}</p> : null}
    </section>
  );
}
