import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { sendReady } from '../../../electron/engine/runtime/queue-actions';
import { migrateSync } from '../../../electron/engine/sync-state/sync-database';
import { pending, send } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const sync = useSyncService({ userPrefix: 'review' });

/** A user with a published design and a draft, synced on a computer whose review before publishing is `review`. */
async function twoDesigns(review: boolean) {
  const { token, api } = sync.user('review');
  const published = await api.createDesign({ name: 'Lamp', excerpt: 'A lamp', license: 'cc0' });
  await api.publishDesign(published.id);
  const draft = await api.createDesign({ name: 'Shade', excerpt: 'A shade', license: 'cc0' });
  const computer = await sync.computer(token, { reviewBeforePublishing: () => review });
  await computer.engine.syncOnce({ settle: 'wait' });
  const dirOf = (id: number) => join(computer.rootPath, computer.engine.folders.ofDesign(id)!.folder);
  return { api, computer, published, draft, dirOf };
}

describe('review before publishing', () => {
  it('holds a file added to a published design as ready to publish until the person sends it; a draft\'s goes at once', async () => {
    const { api, computer, published, draft, dirOf } = await twoDesigns(true);
    writeFileSync(join(dirOf(published.id), 'lamp.stl'), 'solid lamp');
    writeFileSync(join(dirOf(published.id), 'base.stl'), 'solid base');
    writeFileSync(join(dirOf(draft.id), 'shade.stl'), 'solid shade');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect((await api.listDocuments(draft.id)).map((d) => d.name)).toEqual(['shade.stl']);
    expect(await api.listDocuments(published.id)).toEqual([]);
    const ready = pending(computer).filter((item) => item.attention === 'ready-to-publish');
    expect(ready.map((item) => item.path!.split('/')[1]).sort()).toEqual(['base.stl', 'lamp.stl']);
    expect(ready[0]!.reason).toMatch(/^Ready to publish: (lamp|base)\.stl is sent to “Lamp”, which is public, when you say so\.$/);

    expect(sendReady(computer.engine.queue, ready[0]!.id)).toBe(1);
    await send(computer);
    expect(await api.listDocuments(published.id)).toHaveLength(1);
    expect(sendReady(computer.engine.queue, 'all')).toBe(1);
    await send(computer);
    expect((await api.listDocuments(published.id)).map((d) => d.name).sort()).toEqual(['base.stl', 'lamp.stl']);
    // Once sent, a new version of it goes as any change does.
    writeFileSync(join(dirOf(published.id), 'lamp.stl'), 'solid lamp v2');
    await computer.engine.syncOnce({ settle: 'wait' });
    expect(pending(computer).map((item) => [item.kind, item.state])).toEqual([['replace', 'waiting']]);
  });

  it('sends a published design\'s new file at once when it is off (the default)', async () => {
    const { api, computer, published, dirOf } = await twoDesigns(false);
    writeFileSync(join(dirOf(published.id), 'lamp.stl'), 'solid lamp');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect((await api.listDocuments(published.id)).map((d) => d.name)).toEqual(['lamp.stl']);
  });

  it('refuses to send an item that is not ready to publish, saying what it is', async () => {
    const { computer } = await twoDesigns(true);
    const item = computer.engine.queue.enqueue({ kind: 'delete-remote', path: 'x/y.stl', folder: 'x', designId: 1, fileKind: 'document', remoteId: 1, attention: { kind: 'confirm-delete', reason: 'confirm' } });
    expect(() => sendReady(computer.engine.queue, item.id)).toThrow(`Item ${item.id} (x/y.stl) is attention [confirm-delete]: there is no file ready to publish to confirm.`);
  });
});

describe('sync migration 0008', () => {
  it('lets the queue hold files ready to publish, keeping every item, its id and its indexes', () => {
    const db = new Database(':memory:');
    migrateSync(db, ':memory:', 7);
    const insert = (id: number, attention: string) => db.prepare(`INSERT INTO queue_items (id, kind, state, attention, path, payload, created_at, updated_at) VALUES (?, 'upload', 'attention', ?, ?, '{}', 1, 1)`).run(id, attention, `A/${id}.stl`);
    expect(() => insert(1, 'ready-to-publish')).toThrow(/CHECK/);
    insert(7, 'refused');
    const indexes = () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'queue_items' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
    const before = indexes();
    migrateSync(db, ':memory:', 8);
    expect(new QueueStore(db).get(7)).toMatchObject({ state: 'attention', attention: 'refused', path: 'A/7.stl' });
    insert(8, 'ready-to-publish');
    expect(indexes()).toEqual(before);
    expect(() => insert(9, 'nonsense')).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO queue_items (kind, state, path, payload, created_at, updated_at) VALUES ('upload', 'waiting', 'A/8.stl', '{}', 1, 1)`).run()).toThrow(/UNIQUE/);
  });
});
