import { engineLog } from '../log/engine-log';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { searchCachedDesigns, summariesByIds, type DesignSummary } from './design-reads';
import type { DesignsStore } from './designs-store';

export interface SearchAnswer {
  /** Where the results come from: the service (and merged into the cache), or the cache because the service could not be reached. */
  source: 'online' | 'offline';
  items: DesignSummary[];
  hasMore: boolean;
  /** Why the answer is not from the service, when it is not. */
  note: string | null;
}

/**
 * Asks the service (GET /v1/designs/search), writes what it answers into the cache (through its designs store), and returns the
 * designs as the cache now holds them, in the service's order. When the service cannot be reached, the
 * cache answers instead and says so. Other problems are thrown.
 */
export async function searchOnline(
  client: ServiceClient, store: DesignsStore, q: string, options: { page?: number; limit?: number; signal?: AbortSignal } = {},
): Promise<SearchAnswer> {
  const limit = options.limit ?? 20;
  const page = options.page ?? 1;
  try {
    const answer = await client.searchDesigns(q, { page, limit }, options.signal);
    const ids = store.storeDesigns(answer.items, 'list').flatMap((result) => (result.id !== undefined ? [result.id] : []));
    return { source: 'online', items: summariesByIds(store.reader, ids), hasMore: answer.nextPage !== null, note: null };
  } catch (error) {
    if (!isServiceError(error, 'offline')) throw error;
    const offline = searchCachedDesigns(store.reader, q, { offset: (page - 1) * limit, limit });
    // Said once, in words; the detail goes to the engine log.
    engineLog.info('search', 'the online search got no answer from the service', error);
    // What went wrong, as it went (cannot be reached, an answer ended early, a timeout), then what is shown instead.
    return { source: 'offline', items: offline.items, hasMore: offline.hasMore, note: `${error.problem.message} These results come from the cache.` };
  }
}
