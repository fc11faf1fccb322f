import type { LicenseCode } from '../../../../shared';
import { EngineError } from '../../runtime/engine-error';
import type { Handlers } from '../handler-types';
import { designCard } from '../views/design-card';
import { iso } from '../views/iso';

export const LIBRARY_HANDLERS: Handlers<'library.page' | 'library.count' | 'library.licenseCounts' | 'library.searchService'> = {
  /** Only the page crosses: a count for the scrollbar (it may stop early: totalIsLowerBound), and the cards of the visible range. */
  'library.page': async ({ library }, { query, licenses, sort, offset, limit, keptOnly }) => {
    const page = library.page({ query, licenses: licenses as LicenseCode[], keptOnly }, sort, offset, limit);
    const { authors, covers } = await library.cardFacts(page.summaries);
    return {
      total: page.total, totalIsLowerBound: page.totalIsLowerBound, offset, items: page.summaries.map((summary) => designCard(summary, authors, covers)),
      catalogueCheckedAt: iso(page.catalogueCheckedAt), notSearchedYet: page.notSearchedYet,
    };
  },
  /** Every match counted, after a page that said "at least": a newer count or a page of another filter stops it ('cancelled'). */
  'library.count': async ({ library }, { query, licenses }, signal) => ({ total: await library.count({ query, licenses: licenses as LicenseCode[] }, signal) }),
  'library.licenseCounts': ({ library }, { query, upTo }) => library.licenseCounts(query, upTo),
  /**
   * The service's search merged into the cache (then the window asks for its page again). Offline: the 'offline'
   * problem. A newer search stops this one: 'cancelled'.
   */
  'library.searchService': async ({ library }, { query }, signal) => {
    const answer = await library.searchService(query, { page: 1, limit: 100, signal });
    if (answer.source !== 'online') throw new EngineError({ kind: 'offline', message: answer.note ?? 'The service cannot be reached: only the cache was searched.', maybeApplied: false });
    return { found: answer.items.length, merged: answer.items.length };
  },
};
