import { EventEmitter } from 'node:events';
import { LICENSE_CODES, type LicenseCode } from '../../../shared';
import { countByLicense, countCachedDesigns, listCachedDesigns, readSyncState, searchCachedDesigns, summariesByIds, type CachedDesign, type DesignSort, type DesignSummary } from '../cache/design-reads';
import { cachedUser, designIdsOfUser } from '../cache/user-reads';
import { searchOnline, type SearchAnswer } from '../cache/online-search';
import type { DesignsChange } from '../runtime/design-changes';
import type { Engine } from '../runtime/engine';
import { EngineError } from '../runtime/engine-error';
import { readAuthor } from './author-reads';
import { readDesign } from './design-reads';

export interface LibraryFilter {
  query: string;
  licenses: readonly LicenseCode[];
}

export interface LibraryPageData {
  total: number;
  offset: number;
  summaries: DesignSummary[];
  /** When the catalogue was last walked whole (epoch ms), or null. */
  catalogueCheckedAt: number | null;
}

/**
 * The library: pages and counts of the cached designs (never the network), and the service's search merged into
 * the cache. A newer search of the service stops the one before it (its request is aborted), so a stale answer never
 * costs the service or the window anything more. Emits 'changed' when designs of the cache changed.
 */
export class Library extends EventEmitter<{ changed: [DesignsChange] }> {
  private searching: AbortController | null = null;
  private readonly stopFollowing: () => void;

  constructor(private readonly engine: Engine) {
    super();
    const onDesigns = (change: DesignsChange) => this.emit('changed', change);
    engine.changes.on('designs', onDesigns);
    this.stopFollowing = () => engine.changes.off('designs', onDesigns);
  }

  /** Only the page: a count for the scrollbar, and the designs of the visible range. */
  page(filter: LibraryFilter, sort: DesignSort, offset: number, limit: number): LibraryPageData {
    const reader = this.engine.cache.reader;
    const where = { query: filter.query, license: filter.licenses };
    return {
      total: countCachedDesigns(reader, where),
      offset,
      summaries: listCachedDesigns(reader, { ...where, sort, offset, limit }),
      catalogueCheckedAt: readSyncState(reader).lastFullPullAt,
    };
  }

  /** How many cached designs match the query, per license. */
  licenseCounts(query: string): { counts: Record<LicenseCode, number>; total: number } {
    const counts = Object.fromEntries(LICENSE_CODES.map((code) => [code, 0])) as Record<LicenseCode, number>;
    let total = 0;
    for (const { license, n } of countByLicense(this.engine.cache.reader, query)) {
      total += n;
      if (license !== null && license in counts) counts[license as LicenseCode] = n;
    }
    return { counts, total };
  }

  /** A page of the cache's full-text search (works offline). */
  searchCache(query: string, page: number, limit: number) {
    return searchCachedDesigns(this.engine.cache.reader, query, { offset: (page - 1) * limit, limit });
  }

  /**
   * Asks the service's search and merges what it finds into the cache; unreachable, the cache answers and says so.
   * The search asked before this one, if still under way, is stopped: it ends with a 'cancelled' ServiceError.
   */
  async searchService(query: string, options: { page?: number; limit?: number; signal?: AbortSignal } = {}): Promise<SearchAnswer> {
    this.searching?.abort();
    const mine = new AbortController();
    this.searching = mine;
    const signal = options.signal ? AbortSignal.any([mine.signal, options.signal]) : mine.signal;
    try {
      return await searchOnline(this.engine.interactiveClient(), this.engine.cache.db, query, { page: options.page ?? 1, limit: options.limit ?? 20, signal });
    } finally {
      if (this.searching === mine) this.searching = null;
    }
  }

  /**
   * One design, brought up to date first when the service can be asked (its lists of images and documents), else as
   * the cache has it; 'not-cached' when neither has it.
   */
  async design(id: number | string, signal: AbortSignal): Promise<CachedDesign> {
    const cached = await readDesign(this.engine, id, signal);
    if (!cached) throw new EngineError({ kind: 'not-cached', message: `The design ${JSON.stringify(String(id))} is not in the cache, and the service cannot be asked now.` });
    return cached;
  }

  /** An author and their designs, from the service when it can be asked (stored), else what the cache knows. */
  async author(id: number | string, signal: AbortSignal) {
    const online = await readAuthor(this.engine, id, signal);
    const user = cachedUser(this.engine.cache.reader, online?.userId ?? id);
    if (!user) throw new EngineError({ kind: 'not-cached', message: `The author ${JSON.stringify(String(id))} is not in the cache, and the service cannot be asked now.` });
    const ids = online?.ids ?? designIdsOfUser(this.engine.cache.reader, user.id);
    return { user, designs: summariesByIds(this.engine.cache.reader, ids), fromService: online !== null };
  }

  close(): void {
    this.stopFollowing();
    this.searching?.abort();
  }
}
