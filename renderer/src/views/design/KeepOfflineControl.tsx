import { useEffect, useId } from 'react';
import type { DesignDetail } from '../../../../shared';
import { keptOfflineWords } from '../../../../shared/files/kept-offline-words';
import { useKept } from '../../stores/kept-store';

/**
 * "Keep offline" on a design's page: all its images and documents downloaded and never evicted, for a workshop without
 * internet. Kept, it says where its files are (downloading with a progress bar, waiting for the service, ready with
 * the space taken, or what stopped it) and offers to stop keeping it.
 */
export function KeepOfflineControl({ detail }: { detail: DesignDetail }) {
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
      <h3 id={`${noteId}-title`} className="visually-hidden">Offline</h3>
      {kept ? (
        <>
          <p className="keep-offline-state" role="status" data-testid="kept-state" data-state={kept.state}>{keptOfflineWords(kept)}</p>
          {progress !== null ? <progress max={kept.filesTotal} value={progress} aria-label={`Downloading ${detail.card.name} for offline use`} /> : null}
          <button type="button" disabled={busy} onClick={() => void release(designId)}>Stop keeping offline</button>
        </>
      ) : (
        <>
          <button type="button" disabled={busy} aria-describedby={noteId} onClick={() => void keep(designId)}>Keep offline</button>
          <p id={noteId} className="action-reason">
            {fileCount === 0 ? 'Keeps this design here, and its files once it has some.' : `Downloads its ${fileCount === 1 ? 'file' : `${fileCount} files`} and keeps them, however full the cache gets.`}
          </p>
        </>
      )}
      {problem ? <p className="action-reason" role="alert">{problem}</p> : null}
    </section>
  );
}
