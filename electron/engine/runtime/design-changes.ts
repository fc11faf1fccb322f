import { EventEmitter } from 'node:events';
import type { ReadableDB } from '../cache/cache-database';
import { listCachedDesigns, summariesByIds, type DesignSummary } from '../cache/design-reads';
import type { DesignsStore, DesignsWritten } from '../cache/designs-store';
import { engineLog } from '../log/engine-log';

/** Designs of the cache changed: these ids (changed or new) and these removed; `all` when too many to name (a pull). */
export interface DesignsChange {
  ids: number[];
  removed: number[];
  all: boolean;
}

/** The signed-in user's own designs changed in the cache: these ids (changed or new), these no longer own or gone. */
export interface OwnChange {
  ids: number[];
  removed: number[];
}

/** More own designs than this are not followed one by one (own.list shows as many). */
const OWN_LIMIT = 500;

/** What a card shows of a design: its cover is the one it shows (another image when the primary one is gone). */
const fingerprint = (summary: DesignSummary) =>
  JSON.stringify([summary.name, summary.excerpt, summary.license, summary.state, summary.updatedAt, summary.coverImageId, summary.slug, summary.userId, summary.own]);

/**
 * What changed in the cache's designs, told as typed events to whoever shows them (the contract's windows). It follows
 * the designs store (follow()): a write of own designs (one the writer says is own, or of designs that are or were
 * the signed-in user's) makes it compare the own designs the cache holds now with the last look, so the ids are exact
 * whoever wrote them, without the writers having to count them; a pull's end told by the store (`all`) is told as
 * many designs changed. A write of other people's designs made by a read (a design's page, an author, a search) is
 * not told: whoever read it shows it. What the store does not write is told by hand: a pull of the catalogue
 * (catalogueChanged), a sync pass (checkOwn), a design kept offline (designsChanged), a folder made (ownSyncChanged).
 */
export class DesignChanges extends EventEmitter<{ designs: [DesignsChange]; own: [OwnChange] }> {
  private last: Map<number, string> | null = null;

  constructor(private readonly reader: () => ReadableDB, private readonly ownerId: () => number | null) {
    super();
  }

  /** Follows the designs store's writes (see the class); returns the function that stops following. */
  follow(store: DesignsStore): () => void {
    const onWritten = (written: DesignsWritten) => {
      if (written.all) this.catalogueChanged();
      else if (written.own || this.touchesOwn(written)) this.checkOwn();
    };
    store.on('written', onWritten);
    return () => store.off('written', onWritten);
  }

  /** Remembers the own designs as they are now (call before something may change them). */
  baseline(): void {
    try {
      this.last = this.ownNow();
    } catch (error) {
      // A damaged cache is told by the first read a person asked for (with what happens next), not here.
      engineLog.warn('design-changes', 'the own designs could not be read for a first look', error);
    }
  }

  /** Compares the own designs with the last look; tells 'own' and 'designs' when something changed. */
  checkOwn(): OwnChange | null {
    let now: Map<number, string>;
    try {
      now = this.ownNow();
    } catch (error) {
      // The cache is closed (the engine stopped) or unreadable: nothing to tell.
      engineLog.warn('design-changes', 'the own designs could not be read to tell what changed', error);
      return null;
    }
    const before = this.last ?? new Map<number, string>();
    this.last = now;
    const ids = [...now].filter(([id, print]) => before.get(id) !== print).map(([id]) => id);
    const removed = [...before.keys()].filter((id) => !now.has(id));
    if (ids.length === 0 && removed.length === 0) return null;
    const change = { ids, removed };
    this.emit('own', change);
    this.emit('designs', { ...change, all: false });
    return change;
  }

  /** How these own designs sync changed (their folder was made…), not the designs themselves. */
  ownSyncChanged(ids: number[]): void {
    if (ids.length > 0) this.emit('own', { ids, removed: [] });
  }

  /** These designs changed in the cache beside their rows (kept offline, or released). */
  designsChanged(ids: readonly number[]): void {
    if (ids.length > 0) this.emit('designs', { ids: [...ids], removed: [], all: false });
  }

  /** Many designs changed (a pull of the catalogue): the own ones are compared too. */
  catalogueChanged(): void {
    this.checkOwn();
    this.emit('designs', { ids: [], removed: [], all: true });
  }

  /** Whether a write touched designs that are, or were at the last look, the signed-in user's own. */
  private touchesOwn({ ids, removed }: DesignsWritten): boolean {
    if ([...ids, ...removed].some((id) => this.last?.has(id))) return true;
    if (ids.length === 0) return false;
    const ownerId = this.ownerId();
    try {
      return summariesByIds(this.reader(), ids).some((summary) => summary.own || (ownerId !== null && summary.userId === ownerId));
    } catch (error) {
      engineLog.warn('design-changes', 'the designs written could not be read to tell whether they are own', error);
      return false;
    }
  }

  private ownNow(): Map<number, string> {
    const summaries = listCachedDesigns(this.reader(), { ownOnly: true, ownerId: this.ownerId(), sort: 'updated', limit: OWN_LIMIT });
    return new Map(summaries.map((summary) => [summary.id, fingerprint(summary)]));
  }
}
