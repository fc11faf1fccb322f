import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { migrateSync } from '../../../electron/engine/sync-state/sync-database';

describe('sync migration 0003', () => {
  it('lets the queue hold design edits, keeping every item, its id and what it sent, and the one-per-file rule', () => {
    const db = new Database(':memory:');
    migrateSync(db, ':memory:', 2);
    expect(() => db.prepare(`INSERT INTO queue_items (kind, state, payload, created_at, updated_at) VALUES ('update-design', 'waiting', '{}', 1, 1)`).run()).toThrow(/CHECK/);
    db.prepare(`INSERT INTO queue_items (id, kind, state, path, payload, created_at, updated_at, sent_at, sent_name) VALUES (7, 'upload', 'waiting', 'A/a.stl', '{"x":1}', 1, 2, 3, 'a.stl')`).run();
    migrateSync(db, ':memory:', 3);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    // The store of this version writes the columns of the migrations after 0003 too.
    migrateSync(db, ':memory:');
    const store = new QueueStore(db);
    expect(store.get(7)).toMatchObject({ kind: 'upload', state: 'waiting', path: 'A/a.stl', payload: { x: 1 }, sent: { at: 3, name: 'a.stl' } });
    expect(() => db.prepare(`INSERT INTO queue_items (kind, state, path, payload, created_at, updated_at) VALUES ('upload', 'waiting', 'A/a.stl', '{}', 1, 1)`).run()).toThrow(/UNIQUE/);
    expect(store.enqueueDesignEdit(12, { name: 'Gear' }, 'Gear')).toMatchObject({ kind: 'update-design', state: 'waiting', designId: 12 });
  });
});

describe('design edits in the queue', () => {
  const fresh = () => {
    const db = new Database(':memory:');
    migrateSync(db);
    return new QueueStore(db);
  };

  it('merges a later edit of the same design into the one waiting: its fields win, the others stay', () => {
    const store = fresh();
    const first = store.enqueueDesignEdit(1, { name: 'Gear', excerpt: 'A gear' }, 'Gear');
    const second = store.enqueueDesignEdit(1, { excerpt: 'A better gear', license: 'cc0' }, 'Gear');
    expect(second.id).toBe(first.id);
    expect(store.get(first.id)!.payload).toEqual({ fields: { name: 'Gear', excerpt: 'A better gear', license: 'cc0' }, designName: 'Gear' });
    expect(store.enqueueDesignEdit(2, { name: 'Bolt' }, 'Bolt').id).not.toBe(first.id);
    expect(store.pendingDesignEdits().map((item) => item.designId)).toEqual([1, 2]);
  });

  it('keeps an edit made while an earlier one is being sent as its own item, after it; supersedes a failed one', () => {
    const store = fresh();
    const sending = store.enqueueDesignEdit(1, { name: 'Gear' }, 'Gear');
    expect(store.claimNext()!.id).toBe(sending.id);
    const later = store.enqueueDesignEdit(1, { name: 'Gear 2' }, 'Gear 2');
    expect(later.id).not.toBe(sending.id);
    expect(store.pendingDesignEdits(1).map((item) => [item.id, item.state])).toEqual([[sending.id, 'running'], [later.id, 'waiting']]);
    store.settle(sending.id, { state: 'failed', reason: 'refused' });
    store.claimNext();
    store.settle(later.id, { state: 'failed', reason: 'refused too' });
    const third = store.enqueueDesignEdit(1, { name: 'Gear 3' }, 'Gear 3');
    expect(store.get(sending.id)!.state).toBe('cancelled');
    expect(store.get(later.id)).toMatchObject({ state: 'cancelled', reason: 'Replaced by a later edit of the same design.' });
    expect(store.get(third.id)!.state).toBe('waiting');
  });

  it("cancels a design's failed edits once a later edit reached the service directly, so a retry never brings older values back", () => {
    const store = fresh();
    const old = store.enqueueDesignEdit(3, { name: 'Old' }, 'Old');
    store.claimNext();
    store.settle(old.id, { state: 'failed', reason: 'refused' });
    expect(store.supersedeFailedDesignEdits(3)).toBe(1);
    expect(store.get(old.id)!.state).toBe('cancelled');
    expect(store.supersedeFailedDesignEdits(3)).toBe(0);
  });
});
