import { create } from 'zustand';
import type { DesignDetail } from '../../../shared';
import { contract } from '../contract/contract';
import { windowIntl } from '../i18n/window-intl';
import { problemWords } from '../views/problem-words';

interface DesignStore {
  id: number | null;
  detail: DesignDetail | null;
  problem: string | null;
  notice: string | null;
  load(id: number): Promise<void>;
  openPage(): Promise<void>;
}

export const useDesign = create<DesignStore>((set, get) => ({
  id: null,
  detail: null,
  problem: null,
  notice: null,
  async load(id) {
    set({ id, detail: get().detail?.card.id === id ? get().detail : null, problem: null, notice: null });
    const outcome = await contract.request('design.get', { id });
    if (get().id !== id) return;
    set(outcome.ok ? { detail: outcome.value, problem: null } : { problem: problemWords(outcome.problem, windowIntl()) });
  },
  /** Rule 1: the design's page on the service, in the browser; never its files. */
  async openPage() {
    const id = get().id;
    if (id === null) return;
    const outcome = await contract.request('design.openPage', { id });
    if (!outcome.ok) set({ notice: problemWords(outcome.problem, windowIntl()) });
    else if (!outcome.value.opened) set({ notice: windowIntl().formatMessage({ id: 'design.notice.openInBrowser' }, { url: outcome.value.url }) });
    else set({ notice: null });
  },
}));

// The design shown changed in the cache (its edit was sent, a pull brought a newer one): shown again, quietly.
contract.on('designs.changed', ({ ids, removed, all }) => {
  const { id } = useDesign.getState();
  if (id === null) return;
  if (removed.includes(id)) useDesign.setState({ notice: windowIntl().formatMessage({ id: 'design.notice.gone' }) });
  else if (all || ids.includes(id)) void useDesign.getState().load(id);
});
