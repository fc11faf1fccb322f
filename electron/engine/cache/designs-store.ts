import { EventEmitter } from 'node:events';
import type { ServiceClient } from '../api/service-client';
import type { ReadableDB, WritableDB } from './cache-database';
import { refreshDesignFiles } from './child-lists';
import { deleteDesigns, fillAuthor, upsertDesigns, upsertUser, type DesignForm, type UpsertFlags, type UpsertResult } from './design-writes';
import { applyLocalDesignEdit, type LocalDesignEdit } from './local-design-edit';
import { prepared } from './prepared';

/**
 * What the designs store wrote: the designs whose rows changed (new or changed, their image and document lists or
 * their author included), those removed, and the users written. `own`: the writer said they are the signed-in user's
 * own designs (whoever follows compares the own designs again; see DesignChanges). `all`: too many to name (a pull's
 * bulk write, told when it ends).
 */
export interface DesignsWritten {
  ids: number[];
  removed: number[];
  users: number[];
  own: boolean;
  all: boolean;
}

/** A design stored as one of the signed-in user's own (the user-designs form names no author: `ownScreenName` does). */
export interface OwnFlags {
  ownScreenName?: string;
}

const wrote = (results: readonly UpsertResult[]) =>
  results.flatMap((result) => (result.id !== undefined && (result.outcome === 'inserted' || result.outcome === 'updated') ? [result.id] : []));

/**
 * The one writer of the cache's designs and users (and of a design's image and document lists outside a pull): every
 * write the engine makes of them, but for the pull's bulk writer (cache/pull-writer.ts, bulk-fill.ts, its removals and
 * own-design step), goes through here, and each write that changed something is told as one typed 'written' event.
 * The statements themselves are in design-writes.ts, child-writes.ts and local-design-edit.ts, which nothing else
 * but the pull imports (test/architecture/designs-writer.test.ts holds that).
 */
export class DesignsStore extends EventEmitter<{ written: [DesignsWritten] }> {
  constructor(private readonly db: WritableDB, private readonly now: () => number = Date.now) {
    super();
  }

  /** The same database, to read only. */
  get reader(): ReadableDB {
    return this.db;
  }

  /**
   * A design as the service answered a read (its list form): written when new or its date changed; `own` marks it
   * as the signed-in user's own (what an own design's write sends back).
   */
  storeDesign(raw: unknown, own?: OwnFlags): UpsertResult {
    return this.storeDesigns([raw], 'list', own)[0]!;
  }

  /** Designs as the service answered a read, in one transaction (search results, an author's designs in the user form). */
  storeDesigns(items: readonly unknown[], form: DesignForm, own?: OwnFlags): UpsertResult[] {
    const flags: UpsertFlags = own ? { own: true, ...(own.ownScreenName ? { ownScreenName: own.ownScreenName } : {}) } : {};
    const results = upsertDesigns(this.db, items, form, this.now(), flags);
    this.tell({ ids: wrote(results), own: own !== undefined });
    return results;
  }

  /** A user as the service sent it (`public` form, or whoami's `own`); null when it cannot be read. */
  storeUser(raw: unknown, form: 'public' | 'own'): number | null {
    const stored = upsertUser(this.db, raw, form, this.now());
    if (stored?.changed) this.tell({ users: [stored.id] });
    return stored?.id ?? null;
  }

  /** Names the author of a user's cached designs that name none (the user-designs form has no user object). */
  fillAuthor(userId: number, screenName: string): void {
    const ids = fillAuthor(this.db, userId, screenName);
    this.tell({ ids });
  }

  /**
   * Removes designs from the cache (their images, documents and search rows go with them; `own`: they were the
   * signed-in user's); how many were there.
   */
  remove(ids: readonly number[], own = false): number {
    const present = (prepared(this.db, 'SELECT id FROM designs WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)) as number[]);
    const removed = deleteDesigns(this.db, present);
    if (removed > 0) this.tell({ removed: present, own });
    return removed;
  }

  /**
   * An own design's edit made here that waits to be sent: shown by the cache at once, until the service's answer
   * replaces it (applyLocalDesignEdit). False when the design is not cached.
   */
  showLocalEdit(id: number, edit: LocalDesignEdit): boolean {
    const shown = applyLocalDesignEdit(this.db, id, edit);
    if (shown) this.tell({ ids: [id], own: true });
    return shown;
  }

  /**
   * One design's images and documents brought up to date (two conditional GETs: cheap when nothing changed). `own`:
   * the design is the signed-in user's (its files were changed by the queue).
   */
  async refreshFiles(client: ServiceClient, designId: number, signal?: AbortSignal, own = false): Promise<void> {
    if (await refreshDesignFiles(client, this.db, designId, signal, this.now)) this.tell({ ids: [designId], own });
  }

  /**
   * A pull wrote in bulk on its own path (pull-writer.ts): told as the same event when it ends, `all` for the
   * catalogue, `own` for the own designs.
   */
  pulled(change: { own: boolean; all: boolean }): void {
    this.emit('written', { ids: [], removed: [], users: [], ...change });
  }

  private tell(change: Partial<DesignsWritten>): void {
    const full: DesignsWritten = { ids: [], removed: [], users: [], own: false, all: false, ...change };
    if (full.ids.length + full.removed.length + full.users.length === 0) return;
    this.emit('written', full);
  }
}
