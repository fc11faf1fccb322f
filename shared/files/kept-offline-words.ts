import type { KeptDesignView } from '../contract/views';
import { byteSize } from '../text/byte-size';

type KeptFacts = Pick<KeptDesignView, 'state' | 'filesHere' | 'filesTotal' | 'bytesHere' | 'current' | 'problem'>;

const files = (n: number) => `${n.toLocaleString('en')} file${n === 1 ? '' : 's'}`;

/**
 * Where a design kept offline is, in one sentence the window, the tray and `design-sync kept` share: "Kept offline:
 * 6 files, 2.3 MB.", "Downloading Bracket.stl (3 of 6)…", "Waiting for the service: 2 of 6 files here.", or what
 * stopped it.
 */
export function keptOfflineWords(kept: KeptFacts): string {
  switch (kept.state) {
    case 'ready':
      return `Kept offline: ${files(kept.filesTotal)}, ${byteSize(kept.bytesHere)}.`;
    case 'downloading': {
      if (!kept.current) return kept.filesTotal === 0 ? 'Listing its files…' : `Downloading (${kept.filesHere} of ${kept.filesTotal} here)…`;
      const share = kept.current.bytesTotal ? ` ${Math.floor((100 * kept.current.bytesDone) / kept.current.bytesTotal)}%` : '';
      return `Downloading ${kept.current.name} (${Math.min(kept.filesHere + 1, kept.filesTotal)} of ${kept.filesTotal})${share}…`;
    }
    case 'queued':
      return kept.filesTotal === 0 ? 'Waiting its turn to download.' : `Waiting its turn: ${kept.filesHere} of ${files(kept.filesTotal)} here.`;
    case 'waiting':
      return kept.filesTotal === 0 ? 'Waiting for the service to download its files.' : `Waiting for the service: ${kept.filesHere} of ${files(kept.filesTotal)} here.`;
    case 'problem':
      return `Not all kept: ${kept.problem ?? 'a file could not be downloaded'} (${kept.filesHere} of ${files(kept.filesTotal)} here).`;
  }
}
