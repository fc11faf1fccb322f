import { useEffect, useId, useState } from 'react';
import type { DocumentView, SlicerView } from '../../../../shared';
import { isSlicerFileType, modelDownloadAddress, SYSTEM_DEFAULT_SLICER } from '../../../../shared/files/model-files';
import { PRELOAD_GLOBAL } from '../../../../shared/contract/preload-api';
import { contract } from '../../contract/contract';
import { useSync } from '../../stores/sync-store';

/** In the Electron app the engine starts the slicer; in a browser (`design-sync ui`) the host serves the file as a download. */
const inDesktopApp = () => PRELOAD_GLOBAL in window;

/**
 * What opening a model file does with the service: a file kept offline opens without it; one that is not is fetched
 * first (and kept from then on), so it needs the service once.
 */
export function slicerReason(document: DocumentView): string {
  return document.cached
    ? 'Kept offline: it opens without the service.'
    : 'Not kept offline: it is fetched from the service when you open it, and kept from then on.';
}

/** "Open in PrusaSlicer" for the chosen app, "Open in your slicer" for the system's default app. */
const openLabel = (slicer: SlicerView | undefined) => (slicer && slicer.id !== SYSTEM_DEFAULT_SLICER ? slicer.name : 'your slicer');

/**
 * "Open in your slicer" for a model file (STL, 3MF, OBJ, AMF, PLY, STEP, G-code). In the Electron app: "Open in
 * PrusaSlicer" with the slicer remembered for its type (else the first found), a choice of the others found and the
 * system's default app beside it; a file not kept offline is fetched first ("Getting …"). In a browser: a download of
 * the host's copy (fetched into the file cache when not kept), never the service's file (rule 1).
 */
export function ModelFileAction({ document }: { document: DocumentView }) {
  const desktop = inDesktopApp();
  const slicerType = document.isModel && isSlicerFileType(document.type);
  const chooserId = useId();
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [slicers, setSlicers] = useState<SlicerView[] | null>(null);
  const [chosen, setChosen] = useState<string>(SYSTEM_DEFAULT_SLICER);
  const offline = useSync((state) => state.connectivity?.online === false);

  useEffect(() => {
    if (!desktop || !slicerType) return;
    let live = true;
    void contract.request('design.slicers', { documentId: document.id }).then((outcome) => {
      if (!live) return;
      if (outcome.ok) {
        setSlicers(outcome.value.slicers);
        setChosen(outcome.value.chosen);
      } else {
        // The system's default app remains.
        setSlicers([]);
        setStatus(outcome.problem.message);
      }
    });
    return () => {
      live = false;
    };
  }, [desktop, slicerType, document.id]);

  if (!slicerType) return null;
  if (!desktop) {
    // A download that would fail: said instead of offered.
    if (!document.cached && offline) return <p className="action-reason">Not kept offline: it can be downloaded once the service can be reached.</p>;
    return <a className="button" href={modelDownloadAddress(document.id)} download title={slicerReason(document)}>Download <span className="visually-hidden">{document.name} </span>for your slicer</a>;
  }
  const slicer = slicers?.find((candidate) => candidate.id === chosen);
  const open = async () => {
    setBusy(true);
    setStatus(document.cached ? `Opening in ${openLabel(slicer)}…` : `Getting ${document.name}…`);
    const outcome = await contract.request('design.openModelFile', { documentId: document.id, slicer: chosen });
    setBusy(false);
    if (!outcome.ok) setStatus(outcome.problem.message);
    else setStatus(outcome.value.opened ? `Opened in ${openLabel(outcome.value.slicer)}.` : 'It could not be opened here: open the design in the design-sync app.');
  };
  return (
    <>
      <span className="slicer-action">
        <button type="button" onClick={() => void open()} disabled={busy || slicers === null} title={slicerReason(document)}>
          Open <span className="visually-hidden">{document.name} </span>in {openLabel(slicer)}
        </button>
        {slicers && slicers.length > 1 ? (
          <>
            <label className="visually-hidden" htmlFor={chooserId}>Open {document.name} with</label>
            <select id={chooserId} value={chosen} onChange={(event) => setChosen(event.target.value)} disabled={busy}>
              {slicers.map((candidate) => <option key={candidate.id} value={candidate.id}>{candidate.name}</option>)}
            </select>
          </>
        ) : null}
      </span>
      {status ? <p className="action-reason" role="status">{status}</p> : null}
    </>
  );
}
