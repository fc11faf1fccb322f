import { useId } from 'react';
import type { DocumentView } from '../../../../shared';
import { ModelFileAction } from './ModelFileAction';
import { byteSize } from '../../../../shared/text/byte-size';

const size = (bytes: number | null): string => (bytes === null ? 'size unknown' : byteSize(bytes));

/**
 * The design's files: name, type and size, and whether they are kept for offline use (in short: "Kept offline" or
 * "Not kept offline"; how a file is kept is said once, under the table, and each state names that note as its
 * description). Each action's visible label is short ("View in 3D"); its accessible name carries the file's name
 * ("View Gear (STL) in 3D"). Never a link to the service's files (rule 1): a model opens in the person's slicer
 * from the file cache's copy (fetched into it first when not kept). `onPreview` asks for a model's 3D view, which the design page shows beside the gallery.
 */
export function DesignDocuments({ documents, onPreview }: { documents: DocumentView[]; onPreview(document: DocumentView): void }) {
  const noteId = useId();
  if (documents.length === 0) return null;
  const anyModel = documents.some((document) => document.previewUrl !== null);
  return (
    <section className="design-documents" aria-labelledby="documents-title">
      <h3 id="documents-title">Files</h3>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">Offline</th><th scope="col"><span className="visually-hidden">3D view</span></th><th scope="col"><span className="visually-hidden">In your slicer</span></th></tr></thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id}>
              <td className="document-name">{document.name}</td>
              <td>{document.isModel ? `3D model (${document.type.toUpperCase()})` : document.type.toUpperCase() || 'file'}</td>
              <td>{size(document.size)}</td>
              <td className="document-offline" aria-describedby={anyModel ? noteId : undefined}>{document.cached ? 'Kept offline' : 'Not kept offline'}</td>
              <td>{document.previewUrl ? <button type="button" onClick={() => onPreview(document)}>View <span className="visually-hidden">{document.name} </span>in 3D</button> : null}</td>
              <td><ModelFileAction document={document} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      {anyModel ? (
        <p id={noteId} className="action-reason table-note" data-testid="offline-note">
          A model file is kept offline once you view it in 3D or open it in your slicer: then it opens without the service.
        </p>
      ) : null}
    </section>
  );
}
