import { useId, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DocumentView } from '../../../../shared';
import { formatBytes } from '../../../../shared/i18n/format';
import { ModelFileAction } from './ModelFileAction';

/** Hides a tag's words from sight, not from screen readers (a file's name inside a short visible label). */
const hidden = (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>;

/**
 * The design's files: name, type and size, and whether they are kept for offline use (in short: "Kept offline" or
 * "Not kept offline"; how a file is kept is said once, under the table, and each state names that note as its
 * description). Each action's visible label is short ("View in 3D"); its accessible name carries the file's name
 * ("View Gear (STL) in 3D"). Never a link to the service's files (rule 1): a model opens in the person's slicer
 * from the file cache's copy (fetched into it first when not kept). `onPreview` asks for a model's 3D view, which the design page shows beside the gallery.
 */
export function DesignDocuments({ documents, onPreview }: { documents: DocumentView[]; onPreview(document: DocumentView): void }) {
  const intl = useIntl();
  const noteId = useId();
  if (documents.length === 0) return null;
  const anyModel = documents.some((document) => document.previewUrl !== null);
  const typeOf = (document: DocumentView) => {
    const type = document.type.toUpperCase();
    if (document.isModel) return intl.formatMessage({ id: 'design.files.modelType' }, { type });
    return type || intl.formatMessage({ id: 'design.files.unknownType' });
  };
  return (
    <section className="design-documents" aria-labelledby="documents-title">
      <h3 id="documents-title"><FormattedMessage id="design.files.title" /></h3>
      <table>
        <thead>
          <tr>
            <th scope="col"><FormattedMessage id="design.files.name" /></th>
            <th scope="col"><FormattedMessage id="design.files.type" /></th>
            <th scope="col"><FormattedMessage id="design.files.size" /></th>
            <th scope="col"><FormattedMessage id="design.files.offline" /></th>
            <th scope="col"><span className="visually-hidden"><FormattedMessage id="design.files.view3d" /></span></th>
            <th scope="col"><span className="visually-hidden"><FormattedMessage id="design.files.inSlicer" /></span></th>
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <tr key={document.id}>
              <td className="document-name">{document.name}</td>
              <td>{typeOf(document)}</td>
              <td>{document.size === null ? <FormattedMessage id="design.files.sizeUnknown" /> : formatBytes(intl, document.size)}</td>
              <td className="document-offline" aria-describedby={anyModel ? noteId : undefined}>
                <FormattedMessage id={document.cached ? 'design.files.kept' : 'design.files.notKept'} />
              </td>
              <td>
                {document.previewUrl ? (
                  <button type="button" onClick={() => onPreview(document)}>
                    <FormattedMessage id="design.files.viewIn3d" values={{ file: document.name, hidden }} />
                  </button>
                ) : null}
              </td>
              <td><ModelFileAction document={document} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      {anyModel ? (
        <p id={noteId} className="action-reason table-note" data-testid="offline-note">
          <FormattedMessage id="design.files.offlineNote" />
        </p>
      ) : null}
    </section>
  );
}
