import { create } from 'zustand';
import type { ContractProblem, DroppedFileView, QueueEntry } from '../../../shared';
import { contract } from '../contract/contract';
import { engineWordsText, readEngineWords } from '../../../shared/i18n/engine-words';
import { windowIntl } from '../i18n/window-intl';

/** One file dropped on a design (or picked for it), from its way to the host to its upload by the queue. */
export interface Drop {
  key: string;
  designId: number;
  fileName: string;
  /** sending: its bytes go to the host; queued: in the design's folder, for sync and the queue; refused: with `message`. */
  state: 'sending' | 'queued' | 'refused';
  sent: number;
  total: number;
  message: string | null;
  /** Refused without words: the host's status (null: the file could not be sent to it at all). The view words it. */
  status: number | null;
  /** Once in the folder: its path there, the name it got, and the queue's word on its upload. */
  file: DroppedFileView | null;
  upload: { state: QueueEntry['state']; percent: number | null; reason: string | null; reasonWords: QueueEntry['reasonWords'] } | null;
}

interface DropsStore {
  drops: Drop[];
  add(designId: number, files: readonly File[]): void;
  dismiss(designId: number): void;
}

let counter = 0;

/** The host's answer to a drop: `{ file }`, or `{ problem }` (or, from something in between, plain text). */
/**
 * The host's words for a refusal (the engine's facts in the window's language, else its problem's message, or its
 * answer's text), or null when it gave none.
 */
function problemOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { problem?: ContractProblem };
    const words = readEngineWords(parsed.problem?.words);
    if (words) return engineWordsText(windowIntl(), words);
    if (parsed.problem?.message) return parsed.problem.message;
  } catch {
    // not JSON
  }
  return body.trim() || null;
}

/**
 * Sends one file's bytes to the window's host (never through the contract): `PUT /drops/designs/<id>/<name>` on the
 * window's own origin, with the header the host asks of drops; progress from XMLHttpRequest's upload events.
 */
function send(drop: Drop, file: File, update: (key: string, changes: Partial<Drop>) => void): void {
  const request = new XMLHttpRequest();
  request.open('PUT', `/drops/designs/${drop.designId}/${encodeURIComponent(file.name)}`);
  request.setRequestHeader('x-design-sync-drop', '1');
  request.upload.onprogress = (event) => update(drop.key, { sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
  request.onload = () => {
    if (request.status === 201) {
      const { file: placed } = JSON.parse(request.responseText) as { file: DroppedFileView };
      update(drop.key, { state: 'queued', sent: file.size, file: placed, fileName: placed.fileName, message: null });
    } else {
      update(drop.key, { state: 'refused', message: problemOf(request.responseText), status: request.status });
    }
  };
  request.onerror = () => update(drop.key, { state: 'refused', message: null, status: null });
  request.send(file);
}

export const useDrops = create<DropsStore>((set) => {
  const update = (key: string, changes: Partial<Drop>) => set((state) => ({ drops: state.drops.map((drop) => (drop.key === key ? { ...drop, ...changes } : drop)) }));
  return {
    drops: [],
    add(designId, files) {
      const added = files.map((file): [Drop, File] => [{
        key: `drop-${++counter}`, designId, fileName: file.name, state: 'sending', sent: 0, total: file.size, message: null, status: null, file: null, upload: null,
      }, file]);
      set((state) => ({ drops: [...state.drops, ...added.map(([drop]) => drop)] }));
      for (const [drop, file] of added) send(drop, file, update);
    },
    /** Forgets a design's finished drops (what is still being sent stays). */
    dismiss(designId) {
      set((state) => ({ drops: state.drops.filter((drop) => drop.designId !== designId || drop.state === 'sending') }));
    },
  };
});

// The upload of a dropped file is the queue's: its items say how it goes.
contract.on('queue.item', (item) => {
  if (!item.path || !useDrops.getState().drops.some((drop) => drop.file?.path === item.path)) return;
  const percent = item.bytesTotal ? Math.floor((item.bytesSent / item.bytesTotal) * 100) : null;
  useDrops.setState((state) => ({
    drops: state.drops.map((drop) => (drop.file?.path === item.path ? { ...drop, upload: { state: item.state, percent, reason: item.reason, reasonWords: item.reasonWords ?? null } } : drop)),
  }));
});
