import { useEffect, useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { DocumentView, SlicerView } from '../../../../shared';
import { isSlicerFileType, modelDownloadAddress, SYSTEM_DEFAULT_SLICER } from '../../../../shared/files/model-files';
import { PRELOAD_GLOBAL } from '../../../../shared/contract/preload-api';
import type { MessageId } from '../../../../shared/i18n/messages';
import { contract } from '../../contract/contract';
import { problemWords } from '../problem-words';
import { useSync } from '../../stores/sync-store';

/** In the Electron app the engine starts the slicer; in a browser (`design-sync ui`) the host serves the file as a download. */
const inDesktopApp = () => PRELOAD_GLOBAL in window;

/**
 * What opening a model file does with the service: a file kept offline opens without it; one that is not is fetched
 * first (and kept from then on), so it needs the service once.
 */
export function slicerReason(intl: IntlShape, document: DocumentView): string {
  return intl.formatMessage({ id: document.cached ? 'design.slicer.reasonKept' : 'design.slicer.reasonNotKept' });
}

/** The slicer a message names: the chosen app's name (its own), or none for the system's default app ("your slicer"). */
const slicerValues = (slicer: SlicerView | null | undefined) =>
  (slicer && slicer.id !== SYSTEM_DEFAULT_SLICER ? { chosen: 'named', slicer: slicer.name } : { chosen: 'default', slicer: '' });

/** Hides a tag's words from sight, not from screen readers (the file's name inside a short visible label). */
const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;

/**
 * "Open in your slicer" for a model file (STL, 3MF, OBJ, AMF, PLY, STEP, G-code). In the Electron app: "Open in
 * PrusaSlicer" with the slicer remembered for its type (else the first found), a choice of the others found and the
 * system's default app beside it; a file not kept offline is fetched first ("Getting …"). In a browser: a download of
 * the host's copy (fetched into the file cache when not kept), never the service's file (rule 1).
 */
export function ModelFileAction({ document }: { document: DocumentView }) {
  const intl = useIntl();
  const desktop = inDesktopApp();
  const slicerType = document.isModel && isSlicerFileType(document.type);
  const chooserId = useId();
  // The engine's answer as it said it (a problem), or what opening did as a message (worded in the language of the moment).
  const [status, setStatus] = useState<string | { id: MessageId; values?: Record<string, string> } | null>(null);
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
        setStatus(problemWords(outcome.problem, intl));
      }
    });
    return () => {
      live = false;
    };
  }, [desktop, slicerType, document.id]);

  if (!slicerType) return null;
  if (!desktop) {
    // A download that would fail: said instead of offered.
    if (!document.cached && offline) return <p className="action-reason"><FormattedMessage id="design.slicer.downloadLater" /></p>;
    return (
      <a className="button" href={modelDownloadAddress(document.id)} download title={slicerReason(intl, document)}>
        <FormattedMessage id="design.slicer.download" values={{ file: document.name, hidden }} />
      </a>
    );
  }
  const slicer = slicers?.find((candidate) => candidate.id === chosen);
  const open = async () => {
    setBusy(true);
    setStatus(document.cached ? { id: 'design.slicer.opening', values: slicerValues(slicer) } : { id: 'design.slicer.getting', values: { file: document.name } });
    const outcome = await contract.request('design.openModelFile', { documentId: document.id, slicer: chosen });
    setBusy(false);
    if (!outcome.ok) setStatus(problemWords(outcome.problem, intl));
    else {
      setStatus(outcome.value.opened ? { id: 'design.slicer.opened', values: slicerValues(outcome.value.slicer) } : { id: 'design.slicer.notHere' });
    }
  };
  return (
    <>
      <span className="slicer-action">
        <button type="button" onClick={() => void open()} disabled={busy || slicers === null} title={slicerReason(intl, document)}>
          <FormattedMessage id="design.slicer.open" values={{ file: document.name, hidden, ...slicerValues(slicer) }} />
        </button>
        {slicers && slicers.length > 1 ? (
          <>
            <label className="visually-hidden" htmlFor={chooserId}><FormattedMessage id="design.slicer.chooseLabel" values={{ file: document.name }} /></label>
            <select id={chooserId} value={chosen} onChange={(event) => setChosen(event.target.value)} disabled={busy}>
              {slicers.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.id === SYSTEM_DEFAULT_SLICER ? intl.formatMessage({ id: 'design.slicer.systemDefault' }) : candidate.name}
                </option>
              ))}
            </select>
          </>
        ) : null}
      </span>
      {status ? <p className="action-reason" role="status">{typeof status === 'string' ? status : intl.formatMessage({ id: status.id }, status.values)}</p> : null}
    </>
  );
}
