import { create } from 'zustand';
import type { ContractProblem, QueueView } from '../../../shared';
import { contract } from '../contract/contract';
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

export const useQueue = create<QueueStore>((set, get) => ({
  queue: null,
  problem: null,
  async load() {
    const outcome = await contract.request('queue.list', {});
    if (outcome.ok) set({ queue: outcome.value });
  },
  async act(run) {
    const outcome = await run();
    // A contract problem in the window's words (a refused field by its label); words already made pass as they are.
    const problem = outcome.problem && 'kind' in outcome.problem ? problemWords(outcome.problem) : outcome.problem?.message;
    set({ problem: outcome.ok ? null : problem ?? 'That could not be done.' });
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
contract.on('queue.item', reloadSoon);
contract.on('activity', reloadSoon);
