import { create } from 'zustand';
import type { KeptDesignView } from '../../../shared';
import { contract } from '../contract/contract';
import { windowIntl } from '../i18n/window-intl';
import { problemWords } from '../views/problem-words';

interface KeptStore {
  /** The designs kept offline, by id (null until first read). */
  designs: Record<number, KeptDesignView> | null;
  /** Bytes on disk their files take. */
  bytes: number;
  /** What the last keep or release of a design could not do, in words, by design. */
  problems: Record<number, string>;
  /** The designs being kept or released now (their buttons wait). */
  busy: number[];
  load(): Promise<void>;
  keep(designId: number): Promise<void>;
  release(designId: number): Promise<void>;
}

const without = (problems: Record<number, string>, id: number) => Object.fromEntries(Object.entries(problems).filter(([key]) => Number(key) !== id));
const mark = (busy: number[], id: number, on: boolean) => (on ? [...busy, id] : busy.filter((other) => other !== id));

/**
 * The designs kept offline, as the engine tells: read once, then each design's progress as it comes
 * ('offline.progress'), and read again when keeping changed (a keep or release from another window, the CLI).
 */
export const useKept = create<KeptStore>((set, get) => ({
  designs: null,
  bytes: 0,
  problems: {},
  busy: [],
  async load() {
    const outcome = await contract.request('offline.list', {});
    if (outcome.ok) set({ designs: Object.fromEntries(outcome.value.designs.map((design) => [design.designId, design])), bytes: outcome.value.bytes });
  },
  async keep(designId) {
    set({ busy: mark(get().busy, designId, true), problems: without(get().problems, designId) });
    const outcome = await contract.request('offline.keep', { designs: [designId] });
    set({ busy: mark(get().busy, designId, false) });
    if (!outcome.ok) set({ problems: { ...get().problems, [designId]: problemWords(outcome.problem, windowIntl()) } });
    else set({ designs: Object.fromEntries(outcome.value.designs.map((design) => [design.designId, design])), bytes: outcome.value.bytes });
  },
  async release(designId) {
    set({ busy: mark(get().busy, designId, true), problems: without(get().problems, designId) });
    const outcome = await contract.request('offline.release', { designs: [designId] });
    set({ busy: mark(get().busy, designId, false) });
    if (!outcome.ok) set({ problems: { ...get().problems, [designId]: problemWords(outcome.problem, windowIntl()) } });
    else set({ designs: Object.fromEntries(outcome.value.designs.map((design) => [design.designId, design])), bytes: outcome.value.bytes });
  },
}));

contract.on('offline.progress', (view) => {
  const { designs } = useKept.getState();
  if (designs === null) return;
  useKept.setState({ designs: { ...designs, [view.designId]: view } });
  // Its space changed once a file is in: the total is read again when a design is ready or stopped.
  if (view.state === 'ready' || view.state === 'problem') void useKept.getState().load();
});

// Kept or released elsewhere (another window, the command line) shows as changed designs.
contract.on('designs.changed', () => {
  if (useKept.getState().designs !== null) void useKept.getState().load();
});
