import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { OwnDesignView, OwnFolderState } from '../../../../shared';
import { formatAgeSince } from '../../../../shared/i18n/format';
import type { MessageId } from '../../../../shared/i18n/messages';
import { CoverPicture } from '../../thumbnails/CoverPicture';

const FOLDER_WORDS: Record<OwnFolderState, MessageId> = {
  'in-step': 'mine.folderState.inStep',
  uploading: 'mine.folderState.uploading',
  sending: 'mine.folderState.sending',
  'waiting-for-you': 'mine.folderState.waitingForYou',
  conflict: 'mine.folderState.conflict',
  failed: 'mine.folderState.failed',
  'no-folder': 'mine.folderState.noFolder',
};

/** Its folder's state as a badge: "In step", "Uploading 2", "3 wait for you"… */
function folderWords(design: OwnDesignView, intl: IntlShape): string {
  const count = design.folderState === 'uploading' ? design.uploading : design.needsYou;
  return intl.formatMessage({ id: FOLDER_WORDS[design.folderState] }, { count });
}

/** The time words age: read again every half minute. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A design's cover (the library card's: its image, the picture made from its model, or the same blank), then its state, files, folder and last sync. */
export function OwnDesignCover({ design }: { design: OwnDesignView }) {
  return <CoverPicture card={design.card} className="own-cover" width={120} height={90} />;
}

export function OwnDesignFacts({ design }: { design: OwnDesignView }) {
  const now = useNow();
  const intl = useIntl();
  const { files, folderState, lastSyncedAt } = design;
  const lastSync = lastSyncedAt ? intl.formatMessage({ id: 'mine.facts.synced' }, { age: formatAgeSince(intl, lastSyncedAt, now) })
    : folderState === 'no-folder' ? null : intl.formatMessage({ id: 'mine.facts.notSynced' });
  return (
    <p className="own-meta">
      <span className={design.published ? 'badge' : 'badge draft'} data-testid="own-state">
        <FormattedMessage id={design.published ? 'mine.facts.published' : 'mine.facts.draft'} />
      </span>
      <span className={`badge folder-${folderState}`} data-testid="own-folder-state">{folderWords(design, intl)}</span>
      <span data-testid="own-files"><FormattedMessage id="mine.facts.files" values={{ images: files.images, documents: files.documents }} /></span>
      {lastSync ? <span data-testid="own-last-sync">{lastSync}</span> : null}
    </p>
  );
}
