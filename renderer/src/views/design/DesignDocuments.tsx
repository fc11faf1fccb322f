import { useState } from 'react';
import type { DocumentView } from '../../../../shared';
import { ModelPreview } from './ModelPreview';

function size(bytes: number | null): string {
  if (bytes === null) return 'size unknown';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The design's files: name, type and size, and whether they are kept for offline use. Never a link to the files (rule 1). */
export function DesignDocuments({ documents, onChanged }: { documents: DocumentView[]; onChanged(): void }) {
  const [previewing, setPreviewing] = useState<DocumentView | null>(null);
  if (documents.length === 0) return null;
  return (
    <section className="design-documents" aria-labelledby="documents-title">
      <h3 id="documents-title">Files</h3>
      {previewing ? <ModelPreview key={previewing.id} document={previewing} onClose={() => setPreviewing(null)} onCached={onChanged} /> : null}
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">Offline</th><th scope="col"><span className="visually-hidden">3D view</span></th></tr></thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id}>
              <td>{document.name}</td>
              <td>{document.isModel ? `3D model (${document.type.toUpperCase()})` : document.type.toUpperCase() || 'file'}</td>
              <td>{size(document.size)}</td>
              <td>{document.cached ? 'kept' : '—'}</td>
              <td>{document.previewUrl ? <button type="button" onClick={() => setPreviewing(document)}>View {document.name} in 3D</button> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
