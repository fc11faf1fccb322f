import { create } from 'zustand';
import type { ContractProblem, QueueEntry, QueueView } from '../../../shared';
import { contract } from '../contract/contract';
import { windowIntl } from '../i18n/window-intl';
import { problemWords } from '../views/problem-words';

interface QueueStore {
  queue: QueueView | null;
  /** What the last action said when it could not be done. */
  problem: string | null;
  load(): Promise<void>;
  /** Runs one of the queue's or sync's requests, then shows the queue again. */
  act(run: () => Promise<{ ok: boolean; problem?: ContractProblem | { message: string } }>): Promise<boolean>;
}

let reloadTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The smoothed rate of each file being sent, as its queue.item events tell it (the engine measures it as the file's
 * progress is reported; a listing does not carry it): kept here and given to the listed item.
 */
const fileRates = new Map<number, number | null>();

function withRates(view: QueueView): QueueView {
  for (const id of fileRates.keys()) if (!view.items.some((item) => item.id === id && item.state === 'running')) fileRates.delete(id);
  const rated = (item: QueueEntry): QueueEntry => item.state === 'running' ? { ...item, bytesPerSecond: item.bytesPerSecond ?? fileRates.get(item.id) ?? null } : item;
  return { ...view, items: view.items.map(rated) };
}

export const useQueue = create<QueueStore>((set, get) => ({
  queue: null,
  problem: null,
  async load() {
    const outcome = await contract.request('queue.list', {});
    if (outcome.ok) set({ queue: withRates(outcome.value) });
  },
  async act(run) {
    const outcome = await run();
    // A contract problem in the window's words (a refused field by its label); words already made pass as they are.
    const problem = outcome.problem && 'kind' in outcome.problem ? problemWords(outcome.problem, windowIntl()) : outcome.problem?.message;
    set({ problem: outcome.ok ? null : problem ?? windowIntl().formatMessage({ id: 'sync.queue.notDone' }) });
    await get().load();
    return outcome.ok;
  },
}));

/** Items and activity arrive in bursts (a scan queues many at once): the list is read again once per burst. */
function reloadSoon(): void {
  if (!useQueue.getState().queue || reloadTimer) return;
  reloadTimer = setTimeout(() => {
    reloadTimer = undefined;
    void useQueue.getState().load();
  }, 100);
}
contract.on('queue.item', (item) => {
  if (item.state === 'running') fileRates.set(item.id, item.bytesPerSecond ?? null);
  else fileRates.delete(item.id);
  reloadSoon();
});
contract.on('activity', reloadSoon);
