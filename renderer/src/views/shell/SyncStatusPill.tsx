import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { syncReasonWords, syncStateLabel } from '../../../../shared/sync/sync-state-words';
import { isUploading, uploadProgressParts } from '../../../../shared/sync/upload-progress-words';
import { useSync } from '../../stores/sync-store';

const TIP_STYLE = {
  position: 'absolute', top: 'calc(100% + 6px)', insetInlineEnd: 0, zIndex: 10, width: 'max-content', maxWidth: '22rem',
  padding: '6px 10px', borderRadius: '6px', border: '1px solid var(--line)', background: 'var(--panel)', color: 'var(--text)',
  fontSize: '0.85rem', whiteSpace: 'normal', textAlign: 'start',
} as const;

/** Between the parts of the upload progress ("Uploading 3 of 7 · 12 MB of 40 MB"): a mark, not a word. */
const SEPARATOR = ' · ';

/**
 * The one overall state of sync, as a button that opens Sync; its reason (what to do) is one hover or focus away. A
 * change is announced (a polite live region around it). While files are sent it says how far along the uploads are.
 * Its words are made here from the state's code and facts, in the window's language (shared/sync/sync-state-words.ts).
 */
export function SyncStatusPill() {
  const intl = useIntl();
  const sync = useSync((store) => store.sync);
  const [showTip, setShowTip] = useState(false);
  const tipId = useId();
  if (!sync) return null;
  const uploads = isUploading(sync) ? uploadProgressParts(sync.uploads, intl) : null;
  const reason = syncReasonWords(sync, intl);
  return (
    <div className="status-pill-area">
      <div role="status" style={{ position: 'relative' }}>
        <button
          type="button"
          className={`status-pill status-${sync.state}`}
          title={reason ?? undefined}
          aria-describedby={reason ? tipId : undefined}
          onClick={() => { location.hash = '#/sync'; }}
          onFocus={() => setShowTip(true)}
          onBlur={() => setShowTip(false)}
          onMouseEnter={() => setShowTip(true)}
          onMouseLeave={() => setShowTip(false)}
        >
          <span className="status-dot" aria-hidden="true" />
          {/* Sending files: how far along ("Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left") rather than "Syncing 30%". */}
          {uploads ? (
            <span className="upload-progress-summary" data-testid="upload-progress-summary">
              {uploads.files}
              {uploads.bytes ? <span className="upload-progress-bytes">{SEPARATOR}{uploads.bytes}</span> : null}
              {uploads.timeLeft ? <>{SEPARATOR}{uploads.timeLeft}</> : null}
            </span>
          ) : syncStateLabel(sync, intl)}
        </button>
        {reason ? <span id={tipId} role="tooltip" className={showTip ? undefined : 'visually-hidden'} style={showTip ? TIP_STYLE : undefined}>{reason}</span> : null}
      </div>
    </div>
  );
}
