import { useEffect, useState } from 'react';
import type { OwnDesignView, OwnFolderState } from '../../../../shared';
import { describeAge } from '../time';
import { CoverPicture } from '../../thumbnails/CoverPicture';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function folderWords(design: OwnDesignView): string {
  const words: Record<OwnFolderState, string> = {
    'in-step': 'In step',
    uploading: `Uploading ${design.uploading}`,
    sending: 'Sending changes',
    'waiting-for-you': design.needsYou > 1 ? `${design.needsYou} wait for you` : 'Waiting for you',
    conflict: 'Conflict',
    failed: 'A change failed',
    'no-folder': 'No folder yet',
  };
  return words[design.folderState];
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
  const { files, folderState, lastSyncedAt } = design;
  const lastSync = lastSyncedAt ? `Synced ${describeAge(lastSyncedAt, now)}` : folderState === 'no-folder' ? null : 'Not synced yet';
  return (
    <p className="own-meta">
      <span className={design.published ? 'badge' : 'badge draft'} data-testid="own-state">{design.published ? 'Published' : 'Draft'}</span>
      <span className={`badge folder-${folderState}`} data-testid="own-folder-state">{folderWords(design)}</span>
      <span data-testid="own-files">{plural(files.images, 'image', 'images')} · {plural(files.documents, 'document', 'documents')}</span>
      {lastSync ? <span data-testid="own-last-sync">{lastSync}</span> : null}
    </p>
  );
}
