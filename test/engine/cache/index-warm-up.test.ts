import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../electron/engine/cache/cache-database';
import { upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { NARROW_INDEX_READ_THROUGH, readNarrowIndexThrough } from '../../../electron/engine/cache/index-warm-up';
import { listFormDesign, tempDir } from './cache-fixtures';

const dir = tempDir('index-warm-up');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reading the narrow index through', () => {
  it('reads the index of ids and licenses itself, not the smaller index SQLite would pick for a bare count', () => {
    const db = openCacheDatabase(join(dir, 'cache.sqlite'));
    upsertDesigns(db, Array.from({ length: 40 }, (_, i) => listFormDesign({ id: i + 1, user_id: (i % 4) + 1, license: i % 2 ? 'ccby' : null })), 'list', 1);
    db.exec('ANALYZE');
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${NARROW_INDEX_READ_THROUGH}`).all() as { detail: string }[]).map((step) => step.detail);
    expect(plan).toEqual(['SCAN designs USING COVERING INDEX designs_by_id_license']);
    expect(readNarrowIndexThrough(db)).toBe(40);
    db.close();
  });
});
