import { LICENSE_CODES, type LicenseCode } from '../../../../shared';
import { countByLicense, countCachedDesigns, listCachedDesigns, readSyncState, type DesignSort } from '../../cache/design-reads';
import { searchOnline } from '../../cache/online-search';
import { EngineError } from '../../runtime/engine-error';
import type { Handlers } from '../handler-types';
import { resolveAuthors } from '../resolve-authors';
import { designCard } from '../views/design-card';
import { iso } from '../views/iso';

const SORTS: Record<'newest' | 'popular' | 'name' | 'updated', DesignSort> = { newest: 'newest', popular: 'popular', name: 'name', updated: 'updated' };

export const LIBRARY_HANDLERS: Handlers<'library.page' | 'library.licenseCounts' | 'library.searchService'> = {
  /** Only the page crosses: a count for the scrollbar, and the cards of the visible range. */
  'library.page': async (engine, { query, licenses, sort, offset, limit }) => {
    const filter = { query, license: licenses as LicenseCode[] };
    const summaries = listCachedDesigns(engine.cache.reader, { ...filter, sort: SORTS[sort], offset, limit });
    const authors = await resolveAuthors(engine, summaries);
    return {
      total: countCachedDesigns(engine.cache.reader, filter),
      offset,
      items: summaries.map((summary) => designCard(summary, authors)),
      catalogueCheckedAt: iso(readSyncState(engine.cache.reader).lastFullPullAt),
    };
  },
  'library.licenseCounts': (engine, { query }) => {
    const counts = Object.fromEntries(LICENSE_CODES.map((code) => [code, 0])) as Record<LicenseCode, number>;
    let total = 0;
    for (const { license, n } of countByLicense(engine.cache.reader, query)) {
      total += n;
      if (license !== null && license in counts) counts[license as LicenseCode] = n;
    }
    return { counts, total };
  },
  /** The service's search merged into the cache (then the window asks for its page again). Offline: the 'offline' problem. */
  'library.searchService': async (engine, { query }) => {
    const answer = await searchOnline(engine.interactiveClient(), engine.cache.db, query, { page: 1, limit: 100 });
    if (answer.source !== 'online') throw new EngineError({ kind: 'offline', message: answer.note ?? 'The service cannot be reached: only the cache was searched.', maybeApplied: false });
    return { found: answer.items.length, merged: answer.items.length };
  },
};
