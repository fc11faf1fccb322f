import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useDrops, type Drop } from '../../stores/drops-store';
import { useSync } from '../../stores/sync-store';
import { windowWords } from '../problem-words';
import { engineLine } from '../engine-line';
import { useAvailability } from '../use-availability';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

// Files dropped beside a zone must not make the browser open them in place of the window.
for (const type of ['dragover', 'drop'] as const) {
  window.addEventListener(type, (event) => {
    if (!event.dataTransfer?.types.includes('Files') || event.defaultPrevented) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'none';
  });
}

/** How a dropped file goes, in one line; the host's and the queue's own words (why it was refused) as they said them. */
function describe(intl: IntlShape, drop: Drop): string {
  const file = drop.fileName;
  if (drop.state === 'refused') {
    if (drop.message) return intl.formatMessage({ id: 'drops.item.refused' }, { file, why: windowWords(drop.message) });
    return drop.status === null
      ? intl.formatMessage({ id: 'drops.item.unsent' }, { file })
      : intl.formatMessage({ id: 'drops.item.refusedStatus' }, { file, status: String(drop.status) });
  }
  if (drop.state === 'sending') {
    return intl.formatMessage({ id: 'drops.item.receiving' }, { file, share: drop.total > 0 ? Math.floor((drop.sent / drop.total) * 100) / 100 : 0 });
  }
  const upload = drop.upload;
  if (!upload || upload.state === 'waiting') return intl.formatMessage({ id: 'drops.item.queued' }, { file });
  if (upload.state === 'running') {
    return upload.percent !== null
      ? intl.formatMessage({ id: 'drops.item.uploadingShare' }, { file, share: upload.percent / 100 })
      : intl.formatMessage({ id: 'drops.item.uploading' }, { file });
  }
  if (upload.reason && upload.state !== 'done' && upload.state !== 'cancelled') {
    return intl.formatMessage({ id: 'drops.item.reason' }, { file, reason: engineLine(intl, upload.reasonWords, upload.reason) });
  }
  return intl.formatMessage({ id: 'drops.item.state' }, { file, state: upload.state });
}

/**
 * A design files can be dropped on (from the desktop) or picked for with "Add files…": each goes to the window's
 * host, into the design's folder in the sync folder, and is uploaded by sync and the queue. Says how each goes,
 * for screen readers too. Signed out or without a sync folder, adding is off and says why; offline it is offered and
 * says the upload waits for the service.
 */
export function DesignDropZone({ designId, designName, children, className }: { designId: number; designName: string; children: ReactNode; className?: string }) {
  const intl = useIntl();
  const add = useDrops((store) => store.add);
  const dismiss = useDrops((store) => store.dismiss);
  const allDrops = useDrops((store) => store.drops);
  const drops = allDrops.filter((drop) => drop.designId === designId);
  const policyAccepted = useSync((store) => store.sync?.contentPolicyAccepted);
  const adding = useAvailability().can('add-files');
  const addingNote = adding.enabled ? adding.note : adding.reason;
  const noteId = useId();
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const picker = useRef<HTMLInputElement>(null);
  const waitsForPolicy = drops.some((drop) => drop.state === 'queued' && !drop.file?.contentPolicyAccepted) && policyAccepted !== true;

  // Files that cannot be added are not accepted: the window-wide listener keeps the browser from opening them.
  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event) || !adding.enabled) return;
    event.preventDefault();
    depth.current++;
    setOver(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event) || !adding.enabled) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event) || !adding.enabled) return;
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) add(designId, files);
  };

  return (
    <div className={`drop-zone${over ? ' drop-over' : ''}${className ? ` ${className}` : ''}`} data-testid="drop-zone" data-design-id={designId}
      onDragEnter={onDragEnter} onDragOver={onDragOver} onDragLeave={onDragLeave} onDrop={onDrop}>
      {children}
      <div className="drop-bar">
        <button type="button" onClick={() => picker.current?.click()} disabled={!adding.enabled}
          aria-describedby={addingNote ? noteId : undefined}><FormattedMessage id="drops.add" /></button>
        <input ref={picker} type="file" multiple hidden aria-label={intl.formatMessage({ id: 'drops.addLabel' }, { name: designName })} data-testid="drop-picker"
          disabled={!adding.enabled} onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length > 0) add(designId, files);
          }} />
        {adding.enabled ? <span className="field-help">{over ? <FormattedMessage id="drops.dropToAdd" values={{ name: designName }} /> : <FormattedMessage id="drops.orDrop" />}</span> : null}
        {addingNote ? <span id={noteId} className="action-reason" data-testid="add-files-reason">{addingNote}</span> : null}
        {drops.some((drop) => drop.state !== 'sending') ? <button type="button" onClick={() => dismiss(designId)}><FormattedMessage id="drops.clear" /></button> : null}
      </div>
      <ul className="drop-list" aria-live="polite" aria-label={intl.formatMessage({ id: 'drops.listLabel' }, { name: designName })}>
        {drops.map((drop) => (
          <li key={drop.key} data-testid="drop-item" data-state={drop.state} className={drop.state === 'refused' ? 'field-error' : undefined}>
            {describe(intl, drop)}
            {drop.state === 'sending' ? <progress max={drop.total || 1} value={drop.sent} aria-label={intl.formatMessage({ id: 'drops.item.progressLabel' }, { file: drop.fileName })} /> : null}
          </li>
        ))}
      </ul>
      {waitsForPolicy ? (
        <p className="own-note" role="status">
          <FormattedMessage id="drops.waitsForPolicy" values={{ link: (chunks) => <a href="#/sync">{chunks}</a> }} />
        </p>
      ) : null}
    </div>
  );
}
