import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useDrops, type Drop } from '../../stores/drops-store';
import { useSync } from '../../stores/sync-store';
import { windowWords } from '../problem-words';
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

function describe(drop: Drop): string {
  if (drop.state === 'refused') return `${drop.fileName}: not added. ${windowWords(drop.message ?? '')}`;
  if (drop.state === 'sending') return `${drop.fileName}: ${drop.total > 0 ? Math.floor((drop.sent / drop.total) * 100) : 0}% received`;
  const upload = drop.upload;
  if (!upload || upload.state === 'waiting') return `${drop.fileName}: queued — see Sync`;
  if (upload.state === 'running') return `${drop.fileName}: uploading${upload.percent !== null ? ` ${upload.percent}%` : ''}`;
  if (upload.state === 'done') return `${drop.fileName}: uploaded`;
  if (upload.state === 'cancelled') return `${drop.fileName}: upload cancelled`;
  return `${drop.fileName}: ${upload.reason ? windowWords(upload.reason) : upload.state}`;
}

/**
 * A design files can be dropped on (from the desktop) or picked for with "Add files…": each goes to the window's
 * host, into the design's folder in the sync folder, and is uploaded by sync and the queue. Says how each goes,
 * for screen readers too. Signed out or without a sync folder, adding is off and says why; offline it is offered and
 * says the upload waits for the service.
 */
export function DesignDropZone({ designId, designName, children, className }: { designId: number; designName: string; children: ReactNode; className?: string }) {
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
          aria-describedby={addingNote ? noteId : undefined}>Add files…</button>
        <input ref={picker} type="file" multiple hidden aria-label={`Add files to “${designName}”`} data-testid="drop-picker"
          disabled={!adding.enabled} onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            event.target.value = '';
            if (files.length > 0) add(designId, files);
          }} />
        {adding.enabled ? <span className="field-help">{over ? `Drop to add to “${designName}”` : 'or drop files here'}</span> : null}
        {addingNote ? <span id={noteId} className="action-reason" data-testid="add-files-reason">{addingNote}</span> : null}
        {drops.some((drop) => drop.state !== 'sending') ? <button type="button" onClick={() => dismiss(designId)}>Clear list</button> : null}
      </div>
      <ul className="drop-list" aria-live="polite" aria-label={`Files added to “${designName}”`}>
        {drops.map((drop) => (
          <li key={drop.key} data-testid="drop-item" data-state={drop.state} className={drop.state === 'refused' ? 'field-error' : undefined}>
            {describe(drop)}
            {drop.state === 'sending' ? <progress max={drop.total || 1} value={drop.sent} aria-label={`${drop.fileName} received`} /> : null}
          </li>
        ))}
      </ul>
      {waitsForPolicy ? (
        <p className="own-note" role="status">Nothing is uploaded until you accept the content policy: <a href="#/sync">see Sync</a>.</p>
      ) : null}
    </div>
  );
}
