import { create } from 'zustand';
import { contract } from '../contract/contract';
import { problemWords, searchFailedWords } from '../views/problem-words';
import { useLibrary } from './library-store';

/** How long typing must pause before the service is asked too (the cache answers every keystroke by itself). */
const PAUSE_MS = 450;
const MIN_LENGTH = 2;

export type ServiceSearchState =
  | { status: 'idle' }
  | { status: 'searching'; query: string }
  | { status: 'done'; query: string; found: number }
  | { status: 'offline'; query: string; message: string };

/**
 * The service's search, merged into the cache when online: once typing pauses, the service is asked for the query,
 * what it finds is kept in the cache, and the library's pages are asked again. Offline, it says only the cache was
 * searched. An answer for a query no longer typed is dropped.
 */
export const useServiceSearch = create<ServiceSearchState>(() => ({ status: 'idle' }));

let timer: ReturnType<typeof setTimeout> | null = null;

async function ask(query: string): Promise<void> {
  useServiceSearch.setState({ status: 'searching', query });
  const outcome = await contract.request('library.searchService', { query });
  // A newer search replaced this one (the engine stopped it), or the query changed meanwhile: nothing to show.
  if (useLibrary.getState().filter.query.trim() !== query || (!outcome.ok && outcome.problem.kind === 'cancelled')) return;
  if (!outcome.ok) {
    useServiceSearch.setState(outcome.problem.kind === 'offline'
      ? { status: 'offline', query, message: 'Offline: only the cached designs were searched.' }
      : { status: 'offline', query, message: searchFailedWords(problemWords(outcome.problem)) });
    return;
  }
  useServiceSearch.setState({ status: 'done', query, found: outcome.value.found });
  if (outcome.value.merged > 0) useLibrary.getState().refresh();
}

useLibrary.subscribe((state, previous) => {
  const query = state.filter.query.trim();
  if (query === previous.filter.query.trim()) return;
  if (timer) clearTimeout(timer);
  timer = null;
  if (query.length < MIN_LENGTH) {
    useServiceSearch.setState({ status: 'idle' });
    return;
  }
  timer = setTimeout(() => void ask(query), PAUSE_MS);
});
