import { useState } from 'react';
import type { DocumentView } from '../../../../shared';
import { isSlicerFileType, modelDownloadAddress } from '../../../../shared/files/model-files';
import { PRELOAD_GLOBAL } from '../../../../shared/contract/preload-api';
import { contract } from '../../contract/contract';

/** In the Electron app the shell opens files; in a browser (`design-sync ui`) the host serves them as downloads. */
const inDesktopApp = () => PRELOAD_GLOBAL in window;

/** Why a model file cannot be handed to a slicer (yet): only files kept offline are, and a file is kept once viewed in 3D. */
export function slicerReason(document: DocumentView): string {
  return document.previewUrl
    ? 'Not kept offline yet: view it in 3D once to keep a copy.'
    : 'Not kept offline: design-sync keeps model files it shows in 3D (STL, OBJ, 3MF, AMF, PLY, glTF, G-code), once viewed.';
}

/**
 * "Open in your slicer" for a model file kept offline: the system's app for its type opens the cached copy (Electron),
 * or the browser downloads it from the window host (never the service's file: rule 1). Not cached: nothing (the files
 * table's note says how a file is kept).
 */
export function ModelFileAction({ document }: { document: DocumentView }) {
  const [status, setStatus] = useState<string | null>(null);
  if (!document.isModel || !isSlicerFileType(document.type)) return null;
  // Not kept offline: nothing to hand over yet. The files table's note says why, where there is room for it.
  if (!document.cached) return null;
  if (!inDesktopApp()) {
    return <a className="button" href={modelDownloadAddress(document.id)} download>Download <span className="visually-hidden">{document.name} </span>for your slicer</a>;
  }
  const open = async () => {
    setStatus('Opening…');
    const outcome = await contract.request('design.openModelFile', { documentId: document.id });
    if (!outcome.ok) setStatus(outcome.problem.message);
    else setStatus(outcome.value.opened ? 'Opened in your slicer.' : slicerReason(document));
  };
  return (
    <>
      <button type="button" onClick={() => void open()}>Open <span className="visually-hidden">{document.name} </span>in your slicer</button>
      {status ? <p className="action-reason" role="status">{status}</p> : null}
    </>
  );
}
