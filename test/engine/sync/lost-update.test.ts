import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pending, send, syncedFolder } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const sync = useSyncService();

/**
 * gear.scad synced; then changed here to `here` (queued, not sent), and on the service renamed spur.scad and replaced
 * with `there` by another computer; then a sync pass.
 */
async function renamedAndReplacedWhileChangedHere(screenName: string, contents: { here: string; there: string }) {
  const synced = await syncedFolder(sync.service, screenName, 0, sync.computers);
  const { computer, api, design, dir } = synced;
  writeFileSync(join(dir, 'gear.scad'), 'first');
  await computer.engine.syncOnce({ settle: 'wait' });
  await send(computer);
  const [document] = await api.listDocuments(design.id);

  writeFileSync(join(dir, 'gear.scad'), contents.here);
  await computer.engine.scan({ settle: 'wait' });
  const theirs = join(tmpdir(), `${screenName}-${process.pid}.scad`);
  writeFileSync(theirs, contents.there);
  await api.updateDocument(design.id, document!.id, { name: 'spur.scad' }, { path: theirs, fileName: 'spur.scad' });
  await computer.engine.syncOnce({ settle: 'wait' });
  return synced;
}

describe('a file changed here and on the service before the change here is sent', () => {
  it('is not sent over the service\'s version: both are kept (found by the sync fuzz test, seed 1003)', async () => {
    const { token, api } = sync.user('lost-update');
    const design = await api.createDesign({ name: 'Gear', excerpt: 'A gear', license: 'cc0' });
    const computer = await sync.computer(token);
    await computer.engine.syncOnce({ settle: 'wait' });
    const folder = computer.engine.folders.ofDesign(design.id)!.folder;
    const dir = join(computer.rootPath, folder);
    writeFileSync(join(dir, 'gear.stl'), 'first');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    const [document] = await api.listDocuments(design.id);

    // Edited here (queued, not sent yet), then replaced on the service by another computer.
    writeFileSync(join(dir, 'gear.stl'), 'mine');
    await computer.engine.scan({ settle: 'wait' });
    expect(pending(computer).map((item) => item.kind)).toEqual(['replace']);
    const theirs = join(tmpdir(), `theirs-${process.pid}.stl`);
    writeFileSync(theirs, 'theirs');
    await api.updateDocument(design.id, document!.id, {}, { path: theirs, fileName: 'gear.stl' });

    await send(computer);
    const [held] = pending(computer);
    expect(held).toMatchObject({ kind: 'replace', state: 'attention', attention: 'conflict' });
    expect(held!.reason).toMatch(/was changed on the service too since it was last synced: your version was not sent over it/);
    const service1 = (await api.listDocuments(design.id)).map((d) => d.modelhash);
    expect(service1).toHaveLength(1);

    // The next pass keeps both: the service's under the name, this one as a conflicted copy.
    await computer.engine.syncOnce({ settle: 'wait' });
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(2);
    expect(readFileSync(join(dir, 'gear.stl'), 'utf8')).toBe('theirs');
    const copy = names.find((name) => name !== 'gear.stl')!;
    expect(copy).toMatch(/conflicted copy/);
    expect(readFileSync(join(dir, copy), 'utf8')).toBe('mine');
    expect(pending(computer).filter((item) => item.path === `${folder}/gear.stl`)).toEqual([]);
  });

  it('renamed on the service meanwhile: the change here is sent, then the name here follows (found by the sync fuzz test, seeds 1006, 2004)', async () => {
    const { token, api } = sync.user('rename-while-edited');
    const design = await api.createDesign({ name: 'Clip', excerpt: 'A clip', license: 'cc0' });
    const computer = await sync.computer(token);
    await computer.engine.syncOnce({ settle: 'wait' });
    const folder = computer.engine.folders.ofDesign(design.id)!.folder;
    const dir = join(computer.rootPath, folder);
    writeFileSync(join(dir, 'clip.stl'), 'first');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    const [document] = await api.listDocuments(design.id);

    writeFileSync(join(dir, 'clip.stl'), 'mine');
    await computer.engine.scan({ settle: 'wait' });
    await api.updateDocument(design.id, document!.id, { name: 'clip-v2.stl' });
    // A pass before the change here is sent: the file is not renamed under the queued change.
    await computer.engine.syncOnce({ settle: 'wait' });
    expect(readdirSync(dir)).toEqual(['clip.stl']);
    await send(computer);
    await computer.engine.syncOnce({ settle: 'wait' });

    expect(readdirSync(dir)).toEqual(['clip-v2.stl']);
    expect(readFileSync(join(dir, 'clip-v2.stl'), 'utf8')).toBe('mine');
    const after = await api.listDocuments(design.id);
    expect(after.map((d) => d.name)).toEqual(['clip-v2.stl']);
    expect(pending(computer)).toEqual([]);
    // Nothing left to do.
    const again = await computer.engine.syncOnce({ settle: 'wait' });
    expect(again.scan!.enqueued).toBe(0);
    expect(again.remote!.renamed).toBe(0);
  });
  it('renamed and replaced on the service while changed here: the service\'s version comes in under its new name, yours is kept beside it (found by the sync fuzz test, seed 9912)', async () => {
    const { computer, folder, dir } = await renamedAndReplacedWhileChangedHere('renamed-replaced-and-edited', { here: 'mine', there: 'theirs' });

    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(2);
    expect(names).toContain('spur.scad');
    expect(readFileSync(join(dir, 'spur.scad'), 'utf8')).toBe('theirs');
    const copy = names.find((name) => name !== 'spur.scad')!;
    expect(copy).toMatch(/^gear \(conflicted copy .*\)\.scad$/);
    expect(readFileSync(join(dir, copy), 'utf8')).toBe('mine');
    const [held] = pending(computer);
    expect(held).toMatchObject({ kind: 'upload', path: `${folder}/${copy}`, attention: 'conflict' });
    expect(held!.reason).toContain('The service\'s version is now spur.scad');
    expect((held!.payload as { conflictOf?: string }).conflictOf).toBe(`${folder}/spur.scad`);
    // Nothing left to follow: the next pass changes nothing.
    const again = await computer.engine.syncOnce({ settle: 'wait' });
    expect(again.remote!.renamed).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(names);
  });

  it('renamed on the service and changed the same way on both sides: nothing is sent, and the name here follows', async () => {
    const { computer, api, design, dir } = await renamedAndReplacedWhileChangedHere('renamed-and-changed-alike', { here: 'same', there: 'same' });

    expect(readdirSync(dir)).toEqual(['spur.scad']);
    expect(readFileSync(join(dir, 'spur.scad'), 'utf8')).toBe('same');
    expect(pending(computer)).toEqual([]);
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['spur.scad']);
  });

  it('replaced on the service, then renamed here before the replacement came: the rename is sent and the service\'s version comes in under the new name (found by the sync fuzz test, seed 9604)', async () => {
    const { computer, api, design, dir } = await syncedFolder(sync.service, 'replaced-then-renamed', 0, sync.computers);
    writeFileSync(join(dir, 'gear.scad'), 'first');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    const [document] = await api.listDocuments(design.id);

    const theirs = join(tmpdir(), `theirs-${process.pid}.scad`);
    writeFileSync(theirs, 'theirs');
    await api.updateDocument(design.id, document!.id, {}, { path: theirs, fileName: 'gear.scad' });
    renameSync(join(dir, 'gear.scad'), join(dir, 'spur.scad'));
    await computer.engine.scan({ settle: 'wait' });
    expect(pending(computer).map((item) => item.kind)).toEqual(['rename']);
    await send(computer);
    await computer.engine.syncOnce({ settle: 'wait' });

    expect(readdirSync(dir)).toEqual(['spur.scad']);
    expect(readFileSync(join(dir, 'spur.scad'), 'utf8')).toBe('theirs');
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['spur.scad']);
    expect(pending(computer)).toEqual([]);
  });
});
