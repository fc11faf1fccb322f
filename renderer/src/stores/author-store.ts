import { create } from 'zustand';
import type { AuthorPage } from '../../../shared';
import { contract } from '../contract/contract';
import { windowIntl } from '../i18n/window-intl';
import { problemWords } from '../views/problem-words';

interface AuthorStore {
  id: number | null;
  page: AuthorPage | null;
  problem: string | null;
  load(id: number): Promise<void>;
}

export const useAuthor = create<AuthorStore>((set, get) => ({
  id: null,
  page: null,
  problem: null,
  async load(id) {
    set({ id, page: get().page?.author.id === id ? get().page : null, problem: null });
    const outcome = await contract.request('author.get', { id });
    if (get().id !== id) return;
    set(outcome.ok ? { page: outcome.value } : { problem: problemWords(outcome.problem, windowIntl()) });
  },
}));
