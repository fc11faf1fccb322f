import { describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../electron/engine/cache/cache-database';
import { replaceImages } from '../../../electron/engine/cache/child-writes';
import { upsertDesign } from '../../../electron/engine/cache/design-writes';
import { DesignChanges, type OwnChange } from '../../../electron/engine/runtime/design-changes';
import { listFormDesign } from '../cache/cache-fixtures';

const OWNER = 7;
const image = (id: number) => ({ id, name: `image ${id}`, file: { url: `https://files.invalid/${id}.png` }, updated_at: '2026-01-01T10:00:00.000+00:00' });

describe('the changes of own designs', () => {
  it('tells a design changed when its card\'s cover falls back to another image (its primary image is gone)', () => {
    const db = openCacheDatabase(':memory:');
    // As the live service answers: primary_image_id names an image that is gone (no primary_image), attribution present.
    upsertDesign(db, listFormDesign({ id: 41, user_id: OWNER, primary_image_id: 9_000, attribution: null }), 'list', Date.now(), { own: true });
    const changes = new DesignChanges(() => db, () => OWNER);
    const told: OwnChange[] = [];
    changes.on('own', (change) => told.push(change));
    changes.baseline();

    replaceImages(db, 41, [image(501), image(502)], Date.now());

    expect(changes.checkOwn()).toEqual({ ids: [41], removed: [] });
    expect(told).toEqual([{ ids: [41], removed: [] }]);
    // Nothing more changed: nothing told.
    expect(changes.checkOwn()).toBeNull();
    db.close();
  });

  it('tells nothing when the cover the card shows stays the same', () => {
    const db = openCacheDatabase(':memory:');
    upsertDesign(db, listFormDesign({ id: 42, user_id: OWNER, primary_image_id: 601 }), 'list', Date.now(), { own: true });
    replaceImages(db, 42, [image(601)], Date.now());
    const changes = new DesignChanges(() => db, () => OWNER);
    changes.baseline();
    replaceImages(db, 42, [image(601), image(602)], Date.now());
    expect(changes.checkOwn()).toBeNull();
    db.close();
  });
});
