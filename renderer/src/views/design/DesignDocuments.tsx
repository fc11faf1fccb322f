import type { DocumentView } from '../../../../shared';
import { ModelFileAction } from './ModelFileAction';

function size(bytes: number | null): string {
  if (bytes === null) return 'size unknown';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The design's files: name, type and size, and whether they are kept for offline use. Each action's visible label is
 * short ("View in 3D"); its accessible name carries the file's name ("View Gear (STL) in 3D"). Never a link to the service's
 * files (rule 1): a model kept offline opens in the person's slicer from the cached copy. `onPreview` asks for a
 * model's 3D view, which the design page shows beside the gallery.
 */
export function DesignDocuments({ documents, onPreview }: { documents: DocumentView[]; onPreview(document: DocumentView): void }) {
  if (documents.length === 0) return null;
  return (
    <section className="design-documents" aria-labelledby="documents-title">
      <h3 id="documents-title">Files</h3>
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">Offline</th><th scope="col"><span className="visually-hidden">3D view</span></th><th scope="col"><span className="visually-hidden">In your slicer</span></th></tr></thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id}>
              <td>{document.name}</td>
              <td>{document.isModel ? `3D model (${document.type.toUpperCase()})` : document.type.toUpperCase() || 'file'}</td>
              <td>{size(document.size)}</td>
              <td>{document.cached ? 'kept' : '—'}</td>
              <td>{document.previewUrl ? <button type="button" onClick={() => onPreview(document)}>View <span className="visually-hidden">{document.name} </span>in 3D</button> : null}</td>
              <td><ModelFileAction document={document} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
