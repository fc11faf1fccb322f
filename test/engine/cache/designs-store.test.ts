import { describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../electron/engine/cache/cache-database';
import { getCachedDesign } from '../../../electron/engine/cache/design-reads';
import { upsertDesign } from '../../../electron/engine/cache/design-writes';
import { DesignsStore, type DesignsWritten } from '../../../electron/engine/cache/designs-store';
import { DesignChanges, type OwnChange } from '../../../electron/engine/runtime/design-changes';
import { listFormDesign } from './cache-fixtures';

const OWNER = 7;

function storeAndChanges() {
  const db = openCacheDatabase(':memory:');
  const store = new DesignsStore(db, () => 1_000);
  const written: DesignsWritten[] = [];
  store.on('written', (change) => written.push(change));
  const changes = new DesignChanges(() => db, () => OWNER);
  changes.baseline();
  const own: OwnChange[] = [];
  changes.on('own', (change) => own.push(change));
  changes.follow(store);
  return { db, store, written, own };
}

describe('the designs store', () => {
  it('tells each write that changed the cache, with the ids, and nothing for a write that changed nothing', () => {
    const { store, written } = storeAndChanges();
    store.storeDesigns([listFormDesign({ id: 1, user_id: 9 }), listFormDesign({ id: 2, user_id: 9 })], 'list');
    store.storeDesign(listFormDesign({ id: 1, user_id: 9 }));
    store.storeUser({ id: 9, screen_name: 'quill' }, 'public');
    store.storeUser({ id: 9, screen_name: 'quill' }, 'public');
    expect(written).toEqual([
      { ids: [1, 2], removed: [], users: [], own: false, all: false },
      { ids: [], removed: [], users: [9], own: false, all: false },
    ]);
    expect(store.remove([2, 3])).toBe(1);
    expect(store.remove([3])).toBe(0);
    expect(written.at(-1)).toEqual({ ids: [], removed: [2], users: [], own: false, all: false });
    expect(written).toHaveLength(3);
  });

  it('names the designs whose author it filled in, and shows an edit waiting to be sent at once', () => {
    const { db, store, written } = storeAndChanges();
    store.storeDesigns([{ ...listFormDesign({ id: 4, user_id: 12 }), user: undefined }], 'user');
    store.fillAuthor(12, 'maker');
    expect(written.at(-1)!.ids).toEqual([4]);
    expect(store.showLocalEdit(4, { name: 'Renamed here' })).toBe(true);
    expect(getCachedDesign(db, 4)!.summary.name).toBe('Renamed here');
    expect(written.at(-1)).toMatchObject({ ids: [4], own: true });
    expect(store.showLocalEdit(99, { name: 'Not cached' })).toBe(false);
  });

  it('is followed by the design changes: a write of the person\'s own designs is told as own, one of others\' is not', () => {
    const { store, own } = storeAndChanges();
    store.storeDesign(listFormDesign({ id: 20, user_id: 3 }));
    expect(own).toEqual([]);
    store.storeDesign(listFormDesign({ id: 21, user_id: OWNER }), { ownScreenName: 'me' });
    expect(own).toEqual([{ ids: [21], removed: [] }]);
    // Stored by a read (not said to be own): still the owner's design, so compared again.
    store.storeDesign(listFormDesign({ id: 22, user_id: OWNER }));
    expect(own.at(-1)).toEqual({ ids: [22], removed: [] });
    store.remove([21]);
    expect(own.at(-1)).toEqual({ ids: [], removed: [21] });
    expect(own).toHaveLength(3);
  });

  it('tells the end of a pull that wrote on its own path the same way: own designs compared again, the whole catalogue as all', () => {
    const { db, store, own } = storeAndChanges();
    const designs: { all: boolean }[] = [];
    const changes = new DesignChanges(() => db, () => OWNER);
    changes.baseline();
    changes.on('designs', (change) => designs.push(change));
    changes.follow(store);
    // Written as a pull writes (not through the store): nothing is told until the pull says it ended.
    upsertDesign(db, listFormDesign({ id: 30, user_id: OWNER }), 'user', 1_000, { own: true });
    expect(own).toEqual([]);
    store.pulled({ own: true, all: false });
    expect(own).toEqual([{ ids: [30], removed: [] }]);
    store.pulled({ own: false, all: true });
    expect(designs.at(-1)).toMatchObject({ all: true });
  });
});
