import { EventEmitter } from 'node:events';
import { LICENSE_CODES, type LicenseCode } from '../../../shared';
import { ExactCountThread } from '../cache/count-thread';
import { boundedCountsByLicense, boundedDesignCount } from '../cache/design-counts';
import { cacheVersion } from '../cache/cache-version';
import { cacheFileBytes } from '../cache/index-warm-up';
import { engineLog } from '../log/engine-log';
import { countByLicense, countCachedDesigns, getCachedDesign, listCachedDesigns, readSyncState, searchCachedDesigns, summariesByIds, type CachedDesign, type DesignSort, type DesignSummary } from '../cache/design-reads';
import { designPageUrl } from '../cache/attribution';
import { generatedCovers, type GeneratedCover } from '../cache/generated-thumbnails';
import { cachedUser, designIdsOfUser } from '../cache/user-reads';
import { searchOnline, type SearchAnswer } from '../cache/online-search';
import type { DesignsChange } from '../runtime/design-changes';
import { EngineError } from '../runtime/engine-error';
import { resolveAuthors } from './author-names';
import { readAuthor } from './author-reads';
import { designPage, type DesignPage } from './design-page';
import { readDesign } from './design-reads';
import type { LibraryDeps, SizedFile } from './library-deps';

export interface LibraryFilter {
  query: string;
  licenses: readonly LicenseCode[];
  /** Only the designs kept offline (a few: counted exactly, never remembered). */
  keptOnly?: boolean;
}

export interface LibraryPageData {
  /** How many designs match; with totalIsLowerBound, at least this many (the count stopped early). */
  total: number;
  totalIsLowerBound: boolean;
  offset: number;
  summaries: DesignSummary[];
  /** When the catalogue was last walked whole (epoch ms), or null. */
  catalogueCheckedAt: number | null;
  /**
   * For a search: how many cached designs it could not see, their search rows still being written behind a pull
   * (0 when it saw them all, and when nothing was searched).
   */
  notSearchedYet: number;
}

/** What the cards of some designs show beside the designs: the authors they credit (rule 2), their generated covers. */
export interface CardFacts {
  authors: Map<number, string>;
  covers: Map<number, GeneratedCover>;
}

/**
 * The library: pages and counts of the cached designs (never the network), a design's page and an author's, and the
 * service's search merged into the cache (what a read brings is written through the designs store). A newer search of the service stops the one before it (its request is aborted), so a stale answer never
 * costs the service or the window anything more. Emits 'changed' when designs of the cache changed.
 */
export class Library extends EventEmitter<{ changed: [DesignsChange] }> {
  private searching: AbortController | null = null;
  /** The exact count under way, and the filter it counts. */
  private counting: { key: string; controller: AbortController } | null = null;
  /**
   * Exact counts by filter, good while the cache is as it was when counted (a million designs take 17 ms to count):
   * `version` changes with every write to the cache, by this connection or another (the index thread, another process).
   */
  private exactCounts = { version: '', totals: new Map<string, number>() };
  private readonly stopFollowing: () => void;
  /**
   * How many matches a page counts at most before it answers "more than this" (the exact count follows by
   * library.count). DESIGN_SYNC_COUNT_BOUND sets it (the window tests set it low, to need few designs).
   */
  readonly countBound: number;
  /** From how many cached designs exact counts run on a thread of their own (COUNT_THREAD_FROM unless told). */
  private readonly countThreadFrom: number;
  /** From how large a cache file warmUp reads its narrow index through (WARM_UP_FROM_BYTES unless told). */
  private readonly warmUpFromBytes: number;
  private countThread: ExactCountThread | null = null;

  constructor(private readonly deps: LibraryDeps, options: { countBound?: number; countThreadFrom?: number; warmUpFromBytes?: number } = {}) {
    super();
    this.countBound = options.countBound ?? countBoundFromEnvironment();
    this.countThreadFrom = options.countThreadFrom ?? positiveFromEnvironment('DESIGN_SYNC_COUNT_THREAD_FROM') ?? COUNT_THREAD_FROM;
    this.warmUpFromBytes = options.warmUpFromBytes ?? positiveFromEnvironment('DESIGN_SYNC_WARM_UP_FROM_BYTES') ?? WARM_UP_FROM_BYTES;
    const onDesigns = (change: DesignsChange) => this.emit('changed', change);
    deps.changes.on('designs', onDesigns);
    this.stopFollowing = () => deps.changes.off('designs', onDesigns);
  }

  /**
   * Only the page: a count for the scrollbar (stopped at countBound matches: see boundedDesignCount), and the designs
   * of the visible range. A page of another filter stops the exact count of the one before.
   */
  page(filter: LibraryFilter, sort: DesignSort, offset: number, limit: number): LibraryPageData {
    const reader = this.deps.cache.reader;
    const where = { query: filter.query, license: filter.licenses };
    const key = filterKey(filter);
    if (this.counting && this.counting.key !== key) this.counting.controller.abort();
    if (filter.keptOnly) {
      const kept = { ...where, keptOnly: true };
      return {
        total: countCachedDesigns(reader, kept), totalIsLowerBound: false, offset, summaries: listCachedDesigns(reader, { ...kept, sort, offset, limit }),
        catalogueCheckedAt: readSyncState(reader).lastFullPullAt, notSearchedYet: filter.query.trim() === '' ? 0 : this.deps.searchIndex.waiting(),
      };
    }
    const known = this.rememberedCount(key);
    const total = known === undefined ? boundedDesignCount(reader, where, this.countBound) : { n: known, lowerBound: false };
    if (!total.lowerBound) this.rememberCount(key, total.n);
    const summaries = listCachedDesigns(reader, { ...where, sort, offset, limit });
    return {
      // The page's own designs are matches too: a bound counted among the newest matches may have found fewer.
      total: total.lowerBound ? Math.max(total.n, summaries.length > 0 ? offset + summaries.length : 0) : total.n,
      totalIsLowerBound: total.lowerBound,
      offset,
      summaries,
      catalogueCheckedAt: readSyncState(reader).lastFullPullAt,
      notSearchedYet: filter.query.trim() === '' ? 0 : this.deps.searchIndex.waiting(),
    };
  }

  /**
   * How many cached designs match, all of them counted (the page's count may have stopped early). Waits a turn
   * first, so that a newer request arriving meanwhile can stop it before it starts. A newer count, or a page of
   * another filter, stops this one: it ends with a 'cancelled' problem; so does `signal` (the window went away).
   * From countThreadFrom cached designs it is counted on a thread of its own (count-thread.ts), the engine answering
   * meanwhile.
   */
  async count(filter: LibraryFilter, signal?: AbortSignal): Promise<number> {
    this.counting?.controller.abort();
    if (filter.keptOnly) return countCachedDesigns(this.deps.cache.reader, { query: filter.query, license: filter.licenses, keptOnly: true });
    const mine = { key: filterKey(filter), controller: new AbortController() };
    this.counting = mine;
    const stopped = signal ? AbortSignal.any([mine.controller.signal, signal]) : mine.controller.signal;
    const cancelled = () => new EngineError({ kind: 'cancelled', message: 'A newer search replaced this count.' });
    try {
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped.aborted) throw cancelled();
      const remembered = this.rememberedCount(mine.key);
      if (remembered !== undefined) return remembered;
      const reader = this.deps.cache.reader;
      const version = cacheVersion(reader);
      const countHere = () => countCachedDesigns(reader, { query: filter.query, license: filter.licenses });
      const thread = this.threadForCounts();
      let total: number;
      if (thread) {
        try {
          total = await thread.count(filter.query, filter.licenses, stopped);
        } catch (error) {
          if (stopped.aborted) throw cancelled();
          if (!thread.failed) throw error;
          total = countHere();
        }
      } else {
        total = countHere();
      }
      // Counted on the thread, the total may be of a cache written to since: not remembered then.
      if (cacheVersion(reader) === version) this.rememberCount(mine.key, total);
      return total;
    } finally {
      if (this.counting === mine) this.counting = null;
    }
  }

  /** How many designs the cache holds: counted once while the cache stays as it is (a million take 20–30 ms). */
  cachedDesigns(): number {
    const key = filterKey({ query: '', licenses: [] });
    const total = this.rememberedCount(key) ?? countCachedDesigns(this.deps.cache.reader);
    this.rememberCount(key, total);
    return total;
  }

  /**
   * How many cached designs match the query, per license. With `upTo`, only the query's newest upTo + 1 matches
   * are counted (a short prefix matches half of a million designs): `lowerBound` then says the counts are "at least".
   */
  licenseCounts(query: string, upTo?: number): { counts: Record<LicenseCode, number>; total: number; lowerBound?: boolean } {
    const counts = Object.fromEntries(LICENSE_CODES.map((code) => [code, 0])) as Record<LicenseCode, number>;
    let total = 0;
    const bounded = upTo === undefined ? null : boundedCountsByLicense(this.deps.cache.reader, query, upTo);
    for (const { license, n } of bounded?.rows ?? countByLicense(this.deps.cache.reader, query)) {
      total += n;
      if (license !== null && license in counts) counts[license as LicenseCode] = n;
    }
    return bounded ? { counts, total, lowerBound: bounded.lowerBound } : { counts, total };
  }

  /** A page of the cache's full-text search (works offline). */
  searchCache(query: string, page: number, limit: number) {
    return searchCachedDesigns(this.deps.cache.reader, query, { offset: (page - 1) * limit, limit });
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
      return await searchOnline(this.deps.interactiveClient(), this.deps.cache.designs, query, { page: options.page ?? 1, limit: options.limit ?? 20, signal });
    } finally {
      if (this.searching === mine) this.searching = null;
    }
  }

  /**
   * One design, brought up to date first when the service can be asked (its lists of images and documents), else as
   * the cache has it; 'not-cached' when neither has it.
   */
  async design(id: number | string, signal: AbortSignal): Promise<CachedDesign> {
    const cached = await readDesign(this.deps, id, signal);
    if (!cached) throw EngineError.of('not-cached', 'engine.refusal.library.designNotCached', { design: JSON.stringify(String(id)) });
    return cached;
  }

  /**
   * Keeps designs offline (by id or slug): each is read first (from the service when it can be asked, so a design
   * the cache lacks is stored), then recorded as kept; their files are brought behind (keep-offline tells how
   * far). A design neither cached nor readable stops it with its problem, nothing kept.
   */
  async keepOffline(designs: readonly (number | string)[], signal: AbortSignal): Promise<number[]> {
    const ids: number[] = [];
    for (const id of designs) ids.push((await this.design(id, signal)).summary.id);
    this.deps.keepOffline.keep(ids);
    return ids;
  }

  /**
   * A design's page: the design (as design() reads it), the authors it credits, its files' sizes and whether they are
   * here, its author, its page on the service, whether it is kept offline (see design-page.ts).
   */
  designPage(id: number | string, signal: AbortSignal): Promise<DesignPage> {
    return designPage(this.deps, id, signal);
  }

  /** The sizes of documents the file cache does not hold, asked of the service when it can be (remembered meanwhile). */
  documentSizes(files: readonly SizedFile[], signal: AbortSignal): Promise<Map<string, number>> {
    return this.deps.documentSizes(files, signal);
  }

  /** A design as the cache holds it (by id or slug), its files' local copies named; never asks the service. Null when not cached. */
  cachedDesign(key: number | string): CachedDesign | null {
    return getCachedDesign(this.deps.cache.reader, key, { fileRoot: this.deps.fileRoot });
  }

  /** The address of a design's page on the service's web site (rule 1), by its slug when the cache knows it; null without a service. */
  designPageAddress(id: number | string): string | null {
    const webUrl = this.deps.webUrl();
    if (!webUrl) return null;
    const cached = getCachedDesign(this.deps.cache.reader, id)?.summary;
    return designPageUrl(webUrl, cached ?? { id: typeof id === 'number' ? id : 0, slug: typeof id === 'string' ? id : null });
  }

  /**
   * What the cards of these designs show beside them: the authors they credit (those the cache lacks read from the
   * service when it can be asked, and stored; `knownAuthors` when the caller knows them), and their pictures made
   * from a model.
   */
  async cardFacts(summaries: readonly DesignSummary[], knownAuthors?: Map<number, string>): Promise<CardFacts> {
    const authors = knownAuthors ?? await resolveAuthors(this.deps, summaries);
    return { authors, covers: generatedCovers(this.deps.cache.reader, summaries) };
  }

  /** An author and their designs, from the service when it can be asked (stored), else what the cache knows. */
  async author(id: number | string, signal: AbortSignal) {
    const online = await readAuthor(this.deps, id, signal);
    const reader = this.deps.cache.reader;
    const user = cachedUser(reader, online?.userId ?? id);
    if (!user) throw EngineError.of('not-cached', 'engine.refusal.library.authorNotCached', { author: JSON.stringify(String(id)) });
    const ids = online?.ids ?? designIdsOfUser(reader, user.id);
    const designs = summariesByIds(reader, ids);
    return { user, designs, covers: generatedCovers(reader, designs), fromService: online !== null };
  }

  /**
   * The thread that counts exactly, from countThreadFrom cached designs (started then, and kept); null below that, on
   * a database only this connection can read, and once the thread has failed.
   */
  private threadForCounts(): ExactCountThread | null {
    if (this.countThread) return this.countThread.failed ? null : this.countThread;
    const db = this.deps.cache.reader;
    if (db.memory || db.name === '' || this.cachedDesigns() < this.countThreadFrom) return null;
    this.countThread = new ExactCountThread(db.name);
    return this.countThread;
  }

  /**
   * For the window: a cache file of at least warmUpFromBytes has its narrow index read through on the count thread
   * (started for it, and kept for counts), so that the first searches after a restart do not read it from the disk a
   * page at a time (index-warm-up.ts). Nothing is counted on the engine's thread to decide it: that would read the
   * same index from the disk there.
   */
  warmUp(): void {
    const db = this.deps.cache.reader;
    if (this.countThread || db.memory || db.name === '' || cacheFileBytes(db) < this.warmUpFromBytes) return;
    this.countThread = new ExactCountThread(db.name);
    this.countThread.readIndexThrough().catch((error: unknown) => {
      if (!this.countThread?.failed) engineLog.warn('library', 'the cache\'s narrow index could not be read through', error);
    });
  }

  private rememberedCount(key: string): number | undefined {
    const version = cacheVersion(this.deps.cache.reader);
    if (this.exactCounts.version !== version) this.exactCounts = { version, totals: new Map() };
    return this.exactCounts.totals.get(key);
  }

  private rememberCount(key: string, total: number): void {
    // Every search typed since the cache changed is remembered; a long session of typing starts over now and then.
    if (this.exactCounts.totals.size >= REMEMBERED_COUNTS) this.exactCounts.totals.clear();
    this.exactCounts.totals.set(key, total);
  }

  close(): void {
    this.stopFollowing();
    this.searching?.abort();
    this.counting?.controller.abort();
    this.countThread?.close();
  }
}

const filterKey = (filter: LibraryFilter) => JSON.stringify([filter.query.trim(), [...filter.licenses].sort(), filter.keptOnly === true]);

const REMEMBERED_COUNTS = 1_000;

/**
 * From this many cached designs, exact counts run on a thread of their own: a count reads every match's license, up to
 * a second at a million designs (a tenth of that at 100,000), and the engine's thread would wait for it.
 */
export const COUNT_THREAD_FROM = 50_000;

/**
 * From this large a cache file (about 50,000 designs: COUNT_THREAD_FROM) the window reads its narrow index through
 * when it opens it (warmUp).
 */
export const WARM_UP_FROM_BYTES = 128 * 1024 * 1024;

/** A page's count stops above this many matches unless told otherwise. */
export const DEFAULT_COUNT_BOUND = 10_000;

function countBoundFromEnvironment(): number {
  return positiveFromEnvironment('DESIGN_SYNC_COUNT_BOUND') ?? DEFAULT_COUNT_BOUND;
}

/** A whole number above 0 from the environment (the tests set the library's sizes low, to need few designs). */
function positiveFromEnvironment(name: string): number | undefined {
  const asked = Number(process.env[name]);
  return Number.isInteger(asked) && asked > 0 ? asked : undefined;
}
