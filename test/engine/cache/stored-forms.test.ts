import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateCache, openCacheDatabase, schemaVersion } from '../../../electron/engine/cache/cache-database';
import { getCachedDesign, listCachedDesigns, searchCachedDesigns } from '../../../electron/engine/cache/design-reads';
import { DesignWriteSession, upsertDesigns } from '../../../electron/engine/cache/design-writes';
import { packForm, unpackForm, UnreadableStoredFormError } from '../../../electron/engine/cache/form-codec';
import { applyLocalDesignEdit } from '../../../electron/engine/cache/local-design-edit';
import { writeBackloggedSearchRows } from '../../../electron/engine/cache/search-backlog';
import { CACHE_MIGRATIONS } from '../../../electron/engine/cache/migrations';
import { listFormDesign } from './cache-fixtures';

const stored = (db: Database.Database, id: number) =>
  db.prepare('SELECT typeof(list_json) AS kind, list_json AS value FROM designs WHERE id = ?').get(id) as { kind: string; value: string | Uint8Array };

/** A list form as a service may write it: indented, escaped, a number past what a double holds. */
const written = (id: number, description: string, updatedAt = '2026-03-01T10:00:00.000+00:00') => {
  const form = JSON.stringify(listFormDesign({ id, description, updated_at: updatedAt, tags: [{ id: 3, name: 'walnut', taggings_count: 2 }] }), null, 1);
  return form.replace('"download_count": 0', '"download_count": 12345678901234567891').replace('"materials": ""', '"materials": "Caf\\u00e9"');
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('stored design forms', () => {
  it('are kept compressed, well under half their text, and come back byte for byte as the service wrote them', () => {
    const db = openCacheDatabase(':memory:');
    const texts = [written(1, '<p>A <b>walnut</b> stool</p>'), written(2, '<p>Oak shelf</p>')];
    upsertDesigns(db, texts.map((text) => JSON.parse(text) as unknown), 'list', 1, { inListing: true }, new DesignWriteSession(), texts);
    for (const [i, text] of texts.entries()) {
      const row = stored(db, i + 1);
      expect(row.kind).toBe('blob');
      expect((row.value as Uint8Array).length).toBeLessThan(Buffer.byteLength(text) / 2);
      expect(unpackForm(row.value)).toBe(text);
    }
    expect(getCachedDesign(db, 1)).toMatchObject({ design: { id: 1, materials: 'Café' }, forms: { list: { download_count: 12345678901234567891 } }, tags: ['walnut'] });
    expect(searchCachedDesigns(db, 'stool').items.map((design) => design.id)).toEqual([1]);
  });

  it('stored as text by an earlier version are read, searched and edited as they are, and compacted when next written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stored-forms-'));
    dirs.push(dir);
    const path = join(dir, 'cache.sqlite');
    const old = new Database(path);
    migrateCache(old, path, CACHE_MIGRATIONS.length - 1);
    const text = written(5, '<p>Old <i>cherry</i> box</p>', '2026-02-01T10:00:00.000+00:00');
    old.prepare(`INSERT INTO designs (id, slug, name, excerpt, license, state, author_screen_name, updated_at, list_json, list_updated_at, fetched_at)
      VALUES (5, 'design-5', 'Design 5', '', 'ccby', 'published', 'maker', '2026-02-01T10:00:00.000+00:00', ?, '2026-02-01T10:00:00.000+00:00', 1)`).run(text);
    old.prepare('INSERT INTO search_backlog (design_id) VALUES (5)').run();
    old.close();

    const db = openCacheDatabase(path);
    expect(schemaVersion(db)).toBe(CACHE_MIGRATIONS.length);
    expect(stored(db, 5)).toEqual({ kind: 'text', value: text });
    expect(getCachedDesign(db, 5)).toMatchObject({ design: { description: '<p>Old <i>cherry</i> box</p>' }, tags: ['walnut'] });
    writeBackloggedSearchRows(db);
    expect(searchCachedDesigns(db, 'cherry').items.map((design) => design.id)).toEqual([5]);

    applyLocalDesignEdit(db, 5, { name: 'Cherry box' });
    expect(JSON.parse(unpackForm(stored(db, 5).value))).toMatchObject({ name: 'Cherry box', description: '<p>Old <i>cherry</i> box</p>' });

    const newer = written(5, '<p>New <i>maple</i> box</p>');
    upsertDesigns(db, [JSON.parse(newer) as unknown], 'list', 2, {}, new DesignWriteSession(), [newer]);
    expect(stored(db, 5).kind).toBe('blob');
    expect(unpackForm(stored(db, 5).value)).toBe(newer);
    expect(searchCachedDesigns(db, 'maple').items.map((design) => design.id)).toEqual([5]);
    expect(searchCachedDesigns(db, 'cherry').items).toEqual([]);
    db.close();
  });

  it('naming a dictionary this version does not know, or damaged, leave the design shown from its columns and kept as they are', () => {
    const db = openCacheDatabase(':memory:');
    const texts = [written(7, '<p>Seven</p>'), written(8, '<p>Eight</p>')];
    upsertDesigns(db, texts.map((text) => JSON.parse(text) as unknown), 'list', 1, { inListing: true }, new DesignWriteSession(), texts);
    const unknown = Buffer.from([9, 1, 2, 3]);
    const damaged = Buffer.concat([packForm(texts[1]!).subarray(0, 10), Buffer.from([0xff, 0xff, 0xff])]);
    expect(() => unpackForm(unknown)).toThrow(new UnreadableStoredFormError('it names dictionary 9, which this version of design-sync does not know'));
    expect(() => unpackForm(damaged)).toThrow(UnreadableStoredFormError);
    db.prepare('UPDATE designs SET list_json = ? WHERE id = 7').run(unknown);
    db.prepare('UPDATE designs SET list_json = ? WHERE id = 8').run(damaged);

    expect(listCachedDesigns(db, { limit: 10 }).map((design) => design.name).sort()).toEqual(['Design 7', 'Design 8']);
    expect(getCachedDesign(db, 7)).toMatchObject({ summary: { id: 7, name: 'Design 7' }, forms: { list: null }, tags: [] });
    expect(getCachedDesign(db, 8)).toMatchObject({ summary: { id: 8, name: 'Design 8' }, forms: { list: null } });
    applyLocalDesignEdit(db, 7, { name: 'Renamed' });
    expect(Buffer.from(stored(db, 7).value as Uint8Array)).toEqual(unknown);
    expect(getCachedDesign(db, 7)).toMatchObject({ summary: { name: 'Renamed' } });
  });
});
