import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueueRunner, queueClient } from '../../../electron/engine/queue/queue-runner';
import { assemble, pending, send, type Computer } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
const PE_HEAD = (() => {
  const head = Buffer.alloc(256);
  head.write('MZ', 0, 'latin1');
  head.writeUInt32LE(128, 60);
  head.write('PE\0\0', 128, 'latin1');
  return head;
})();

const sync = useSyncService();
/** A user with one own design; `count` computers signed in as that user, each with its own profile and root. */
const setup = (count: number, designName?: string) => sync.account(count, designName);

const folderOf = (computer: Computer, designId: number) => computer.engine.folders.ofDesign(designId)!.folder;
const files = (dir: string) => readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
const kinds = (computer: Computer) => pending(computer).map((item) => `${item.kind}${item.attention ? `/${item.attention}` : ''} ${item.path ?? item.folder}`).sort();

describe('two computers on one account', () => {
  it('sends local adds, changes, renames and (confirmed) deletes; a rename keeps the file on the service', async () => {
    const { api, design, computers: [a] } = await setup(1);
    const first = await a!.engine.syncOnce({ settle: 'wait' });
    expect(first.createdFolders).toHaveLength(1);
    const folder = folderOf(a!, design.id);
    expect(folder).toBe(design.slug);
    const dir = join(a!.rootPath, folder);

    writeFileSync(join(dir, 'gear.stl'), 'solid gear\nendsolid gear\n');
    copyFileSync(join(IMAGES, 'png-sample.png'), join(dir, 'photo.png'));
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'tool.exe'), 'not really');
    writeFileSync(join(dir, 'readme.bin'), PE_HEAD);
    for (const ignored of ['.DS_Store', 'Thumbs.db', 'gear.stl.part', '~$notes.docx', '.gear.stl.swp', 'notes.txt~']) writeFileSync(join(dir, ignored), 'x');
    writeFileSync(join(a!.rootPath, 'stray.txt'), 'top level');
    mkdirSync(join(dir, 'sub'));

    const scan = (await a!.engine.syncOnce({ settle: 'wait' })).scan!;
    expect(scan.stopped).toBeNull();
    expect(kinds(a!)).toEqual([
      `upload ${folder}/empty.txt`, `upload ${folder}/gear.stl`, `upload ${folder}/photo.png`,
      `upload/refused ${folder}/readme.bin`, `upload/refused ${folder}/tool.exe`,
    ]);
    expect(pending(a!).find((i) => i.path === `${folder}/photo.png`)!.fileKind).toBe('image');
    expect(pending(a!).find((i) => i.path === `${folder}/tool.exe`)!.reason).toMatch(/executable/);
    const warnings = a!.events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings.join('\n')).toMatch(/stray\.txt is at the top of the sync folder/);
    expect(warnings.join('\n')).toMatch(/folders inside a design's folder are not synced/);

    const sent = await send(a!);
    expect(sent.map((i) => i.kind)).toEqual(['upload', 'upload', 'upload']);
    expect((await api.listImages(design.id)).map((i) => i.name)).toEqual(['photo.png']);
    const documents = await api.listDocuments(design.id);
    expect(documents.map((d) => d.name).sort()).toEqual(['empty.txt', 'gear.stl']);
    const gearId = documents.find((d) => d.name === 'gear.stl')!.id;

    // Nothing changed: nothing queued, no download of what we just sent.
    const again = await a!.engine.syncOnce({ settle: 'wait' });
    expect(again.scan!.enqueued).toBe(0);
    expect(again.remote!.downloaded).toBe(0);
    expect(again.remote!.conflicts).toBe(0);

    // Change → PATCH with the new file.
    writeFileSync(join(dir, 'gear.stl'), 'solid gear v2\nendsolid gear\n');
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(kinds(a!)).toContain(`replace ${folder}/gear.stl`);
    await send(a!);
    expect((await api.getDocument(design.id, gearId)).modelhash).toBe(a!.engine.base.get(`${folder}/gear.stl`)!.sha1);

    // Rename → the name follows, same id, nothing uploaded.
    renameSync(join(dir, 'gear.stl'), join(dir, 'spur.stl'));
    await a!.engine.syncOnce({ settle: 'wait' });
    const renames = pending(a!).filter((i) => i.kind !== 'upload' || !i.attention);
    expect(renames.map((i) => [i.kind, i.path, i.remoteId, i.payload.fromPath])).toEqual([['rename', `${folder}/spur.stl`, gearId, `${folder}/gear.stl`]]);
    await send(a!);
    const afterRename = await api.listDocuments(design.id);
    expect(afterRename.map((d) => [d.id, d.name]).sort()).toEqual([[afterRename.find((d) => d.name === 'empty.txt')!.id, 'empty.txt'], [gearId, 'spur.stl']].sort());
    expect((await a!.engine.syncOnce({ settle: 'wait' })).remote!.downloaded).toBe(0);

    // Delete → waits for a confirmation, never silent.
    rmSync(join(dir, 'photo.png'));
    await a!.engine.syncOnce({ settle: 'wait' });
    const del = pending(a!).find((i) => i.kind === 'delete-remote')!;
    expect(del).toMatchObject({ state: 'attention', attention: 'confirm-delete', path: `${folder}/photo.png` });
    expect(del.reason).toMatch(/photo\.png was deleted from the folder .*: confirm to delete it on the service too/);
    expect(await send(a!)).toEqual([]);
    expect(await api.listImages(design.id)).toHaveLength(1);
    await a!.engine.syncOnce({ settle: 'wait' }); // asked again: still one item, still waiting
    expect(pending(a!).filter((i) => i.kind === 'delete-remote')).toHaveLength(1);
    a!.engine.queue.confirm(del.id);
    await send(a!);
    expect(await api.listImages(design.id)).toEqual([]);
  });

  it('brings the service\'s adds, changes, renames and removals into the other computer, to the trash for removals', async () => {
    const { api, design, computers: [a, b] } = await setup(2);
    await a!.engine.syncOnce({ settle: 'wait' });
    const folder = folderOf(a!, design.id);
    const dirA = join(a!.rootPath, folder);
    writeFileSync(join(dirA, 'gear.stl'), 'gear v1');
    writeFileSync(join(dirA, 'notes.txt'), 'notes v1');
    copyFileSync(join(IMAGES, 'jpg-sample.jpg'), join(dirA, 'front.jpg'));
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);

    const firstB = await b!.engine.syncOnce({ settle: 'wait' });
    const dirB = join(b!.rootPath, folderOf(b!, design.id));
    expect(firstB.remote).toMatchObject({ downloaded: 3, conflicts: 0 });
    expect(files(dirB)).toEqual(['front.jpg', 'gear.stl', 'notes.txt']);
    expect(readFileSync(join(dirB, 'front.jpg')).equals(readFileSync(join(IMAGES, 'jpg-sample.jpg')))).toBe(true);
    expect(readdirSync(dirB).filter((n) => n.startsWith('.design-sync-'))).toEqual([]);
    expect(pending(b!)).toEqual([]); // nothing downloaded is sent back

    // Changed on the service, unchanged here → replaced here.
    writeFileSync(join(dirA, 'gear.stl'), 'gear v2, longer');
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);
    const second = await b!.engine.syncOnce({ settle: 'wait' });
    expect(second.remote).toMatchObject({ replaced: 1, conflicts: 0, downloaded: 0 });
    expect(readFileSync(join(dirB, 'gear.stl'), 'utf8')).toBe('gear v2, longer');
    expect(pending(b!)).toEqual([]);

    // Renamed on the service → renamed here, not downloaded again.
    const front = (await api.listImages(design.id))[0]!;
    await api.updateImage(design.id, front.id, { name: 'cover.jpg' });
    const third = await b!.engine.syncOnce({ settle: 'wait' });
    expect(third.remote).toMatchObject({ renamed: 1, downloaded: 0, replaced: 0 });
    expect(files(dirB)).toEqual(['cover.jpg', 'gear.stl', 'notes.txt']);

    // Removed on the service → to the trash here (never re-uploaded, never gone for good).
    const notes = (await api.listDocuments(design.id)).find((d) => d.name === 'notes.txt')!;
    await api.deleteDocument(design.id, notes.id);
    const fourth = await b!.engine.syncOnce({ settle: 'wait' });
    expect(fourth.remote!.trashed).toBe(1);
    expect(files(dirB)).toEqual(['cover.jpg', 'gear.stl']);
    const trashed = readdirSync(join(b!.rootPath, '.design-sync-trash'), { recursive: true }).map(String);
    expect(trashed.some((p) => p.endsWith('notes.txt'))).toBe(true);
    expect(b!.events.some((e) => e.type === 'trashed' && e.where.includes('.design-sync-trash'))).toBe(true);
    expect(pending(b!)).toEqual([]);
  });

  it('brings back a file deleted here and then changed on the service under the name the service gave it meanwhile', async () => {
    const { api, design, computers: [a] } = await setup(1);
    await a!.engine.syncOnce({ settle: 'wait' });
    const dir = join(a!.rootPath, folderOf(a!, design.id));
    writeFileSync(join(dir, 'gear.stl'), 'gear v1');
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);
    const gear = (await api.listDocuments(design.id)).find((d) => d.name === 'gear.stl')!;

    // Renamed on the service while it is deleted here: the deletion waits for the person, the new name is noted.
    await api.updateDocument(design.id, gear.id, { name: 'rack.stl' });
    rmSync(join(dir, 'gear.stl'));
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(kinds(a!)).toEqual([`delete-remote/confirm-delete ${folderOf(a!, design.id)}/gear.stl`]);
    expect(files(dir)).toEqual([]);

    // Then changed on the service: brought back, under the service's name, and the deletion no longer asked.
    const source = join(a!.rootPath, '..', 'rack-v2.stl');
    writeFileSync(source, 'rack v2, longer');
    await api.updateDocument(design.id, gear.id, { name: 'rack.stl' }, { path: source, fileName: 'rack.stl' });
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(files(dir)).toEqual(['rack.stl']);
    expect(readFileSync(join(dir, 'rack.stl'), 'utf8')).toBe('rack v2, longer');
    expect(pending(a!)).toEqual([]);
    const again = await a!.engine.syncOnce({ settle: 'wait' });
    expect(again.remote).toMatchObject({ downloaded: 0, replaced: 0, renamed: 0, trashed: 0 });
    expect(files(dir)).toEqual(['rack.stl']);
    rmSync(source, { force: true });
  });

  it('keeps both copies when a file changed on both sides, and makes no copy when both made the same change', async () => {
    const { api, design, computers: [a, b] } = await setup(2);
    await a!.engine.syncOnce({ settle: 'wait' });
    const folder = folderOf(a!, design.id);
    const dirA = join(a!.rootPath, folder);
    writeFileSync(join(dirA, 'gear.stl'), 'base');
    writeFileSync(join(dirA, 'same.txt'), 'base');
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);
    await b!.engine.syncOnce({ settle: 'wait' });
    const dirB = join(b!.rootPath, folder);

    writeFileSync(join(dirA, 'gear.stl'), 'theirs');
    writeFileSync(join(dirA, 'same.txt'), 'both the same');
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);
    writeFileSync(join(dirB, 'gear.stl'), 'mine, edited on B');
    writeFileSync(join(dirB, 'same.txt'), 'both the same');

    const result = await b!.engine.syncOnce({ settle: 'wait' });
    expect(result.remote).toMatchObject({ conflicts: 1, adopted: 1 });
    const names = files(dirB);
    const copy = names.find((n) => /^gear \(conflicted copy \d{4}-\d{2}-\d{2} \d{4}\)\.stl$/.test(n))!;
    expect(copy).toBeDefined();
    expect(names).toEqual([copy, 'gear.stl', 'same.txt'].sort());
    expect(readFileSync(join(dirB, 'gear.stl'), 'utf8')).toBe('theirs');
    expect(readFileSync(join(dirB, copy), 'utf8')).toBe('mine, edited on B');
    expect(kinds(b!)).toEqual([`upload/conflict ${folder}/${copy}`]);
    expect(pending(b!)[0]!.reason).toMatch(/changed both here and on the service/);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['gear.stl', 'same.txt']);

    // The person merges and deletes the copy: the conflict item is withdrawn, the merge is sent.
    writeFileSync(join(dirB, 'gear.stl'), 'theirs + mine');
    rmSync(join(dirB, copy));
    await b!.engine.syncOnce({ settle: 'wait' });
    expect(kinds(b!)).toEqual([`replace ${folder}/gear.stl`]);
    expect((await send(b!)).map((i) => i.kind)).toEqual(['replace']);
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(readFileSync(join(dirA, 'gear.stl'), 'utf8')).toBe('theirs + mine');
    expect(files(dirA)).toEqual(['gear.stl', 'same.txt']);

    // Another conflict, and this time the person keeps the copy: confirmed, it goes up as a new file of its own name.
    writeFileSync(join(dirA, 'gear.stl'), 'theirs again');
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);
    writeFileSync(join(dirB, 'gear.stl'), 'mine again');
    expect((await b!.engine.syncOnce({ settle: 'wait' })).remote).toMatchObject({ conflicts: 1 });
    const second = pending(b!)[0]!;
    const copyName = second.path!.slice(folder.length + 1);
    expect(second).toMatchObject({ kind: 'upload', attention: 'conflict', payload: { name: copyName, conflictOf: `${folder}/gear.stl` } });
    expect(await send(b!)).toEqual([]); // a conflict waits for the person
    b!.engine.queue.confirm(second.id);
    expect((await send(b!)).map((i) => [i.kind, i.path])).toEqual([['upload', `${folder}/${copyName}`]]);
    const documents = await api.listDocuments(design.id);
    expect(documents.map((d) => d.name).sort()).toEqual([copyName, 'gear.stl', 'same.txt'].sort());
    expect(b!.engine.base.get(`${folder}/${copyName}`)!.remoteId).toBe(documents.find((d) => d.name === copyName)!.id);
    const settledB = await b!.engine.syncOnce({ settle: 'wait' });
    expect(settledB.scan!.enqueued).toBe(0);
    expect(settledB.remote).toMatchObject({ downloaded: 0, conflicts: 0 });
    expect((await a!.engine.syncOnce({ settle: 'wait' })).remote).toMatchObject({ downloaded: 1, conflicts: 0 });
    expect(files(dirA)).toEqual([copyName, 'gear.stl', 'same.txt'].sort());
    expect(readFileSync(join(dirA, copyName), 'utf8')).toBe('mine again');
    expect(pending(a!)).toEqual([]);
  });

  it('finds changes made while closed; a stale client reconnecting neither resurrects deleted files nor re-uploads unchanged ones', async () => {
    const { api, design, computers: [a, b] } = await setup(2);
    await a!.engine.syncOnce({ settle: 'wait' });
    const folder = folderOf(a!, design.id);
    const dirA = join(a!.rootPath, folder);
    for (const name of ['keep.txt', 'gone.txt', 'edited.txt']) writeFileSync(join(dirA, name), name);
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);
    await b!.engine.syncOnce({ settle: 'wait' });
    const dirB = join(b!.rootPath, folder);
    await b!.engine.stop(); // B goes away for a while

    // Meanwhile on A: one file deleted (confirmed), one edited.
    rmSync(join(dirA, 'gone.txt'));
    writeFileSync(join(dirA, 'edited.txt'), 'edited on A');
    await a!.engine.syncOnce({ settle: 'wait' });
    a!.engine.queue.confirm(pending(a!).find((i) => i.kind === 'delete-remote')!.id);
    await send(a!);
    // …and on B while it was closed: a new file.
    writeFileSync(join(dirB, 'added-while-closed.txt'), 'new');

    // B starts again, offline first: its own changes are found and queued, nothing is removed.
    const { sync: offline } = assemble({ url: 'http://127.0.0.1:9', db: b!.db, cache: b!.cache, session: b!.session, settleMs: 120 });
    const offlinePass = await offline.syncOnce({ settle: 'wait' });
    expect(offlinePass.remoteSkipped?.text).toMatch(/cannot be reached/);
    expect(kinds(b!)).toEqual([`upload ${folder}/added-while-closed.txt`]);
    expect(files(dirB)).toEqual(['added-while-closed.txt', 'edited.txt', 'gone.txt', 'keep.txt']);
    expect(offline.folderSide.remoteProblem).toBe('offline');
    // Its runner cannot reach the service either: the upload waits (not failed, not lost), and the queue says why.
    const offlineRunner = new QueueRunner({ store: offline.queue, session: b!.session, client: queueClient(b!.session, 'http://127.0.0.1:9'), settleMs: 120, random: () => 0.5 });
    offlineRunner.start();
    try {
      await offlineRunner.waitUntil(() => offlineRunner.blockedBy?.kind === 'offline', { timeoutMs: 10_000 });
      expect(offline.queue.recentActivity(5).map((a) => a.message)).toContain('The service cannot be reached: uploads wait and resume by themselves.');
      expect(kinds(b!)).toEqual([`upload ${folder}/added-while-closed.txt`]);
      expect(pending(b!)[0]!.state).toBe('waiting');
    } finally {
      await offlineRunner.stop();
    }

    // Back online.
    const online = await b!.engine.syncOnce({ settle: 'wait' });
    expect(online.remote).toMatchObject({ trashed: 1, replaced: 1, downloaded: 0, conflicts: 0 });
    expect(files(dirB)).toEqual(['added-while-closed.txt', 'edited.txt', 'keep.txt']);
    expect(readFileSync(join(dirB, 'edited.txt'), 'utf8')).toBe('edited on A');
    expect(kinds(b!)).toEqual([`upload ${folder}/added-while-closed.txt`]);
    // Reconnected, its runner sends that one file and nothing else (no re-upload of what it had).
    expect((await send(b!)).map((i) => [i.kind, i.path])).toEqual([['upload', `${folder}/added-while-closed.txt`]]);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['added-while-closed.txt', 'edited.txt', 'keep.txt']);
    expect((await b!.engine.syncOnce({ settle: 'wait' })).scan!.enqueued).toBe(0);
  });

  it('treats NFC and NFD names as the same file, and syncs a 0-byte file', async () => {
    const { api, design, computers: [a, b] } = await setup(2, 'Café table');
    await a!.engine.syncOnce({ settle: 'wait' });
    const folder = folderOf(a!, design.id);
    const dirA = join(a!.rootPath, folder);
    const nfd = 'cafe\u0301 plan.stl';
    writeFileSync(join(dirA, nfd), 'plan');
    writeFileSync(join(dirA, 'zero.stl'), '');
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(pending(a!).find((i) => i.path === `${folder}/${nfd}`)!.payload.name).toBe('café plan.stl');
    await send(a!);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['café plan.stl', 'zero.stl']);

    // A again: the service's NFC name is the local NFD file; no download, no copy.
    const again = await a!.engine.syncOnce({ settle: 'wait' });
    expect(again.remote).toMatchObject({ downloaded: 0, conflicts: 0 });
    expect(files(dirA)).toEqual([nfd, 'zero.stl']);

    // B has an NFD file of that name with the same content already: linked, not duplicated.
    const dirB = join(b!.rootPath, folder);
    mkdirSync(dirB, { recursive: true });
    b!.engine.folders.link(folder, design.id);
    writeFileSync(join(dirB, nfd), 'plan');
    const first = await b!.engine.syncOnce({ settle: 'wait' });
    expect(first.remote).toMatchObject({ adopted: 1, downloaded: 1, conflicts: 0 });
    expect(files(dirB)).toEqual([nfd, 'zero.stl']);
    expect(readFileSync(join(dirB, 'zero.stl')).length).toBe(0);
    expect(pending(b!)).toEqual([]);
  });

  it('proposes a new top-level folder as a design and uploads its files once confirmed; a move between designs is upload + confirm-delete', async () => {
    const { api, design, computers: [a] } = await setup(1);
    await a!.engine.syncOnce({ settle: 'wait' });
    const folder = folderOf(a!, design.id);
    writeFileSync(join(a!.rootPath, folder, 'part.stl'), 'part');
    await a!.engine.syncOnce({ settle: 'wait' });
    await send(a!);

    mkdirSync(join(a!.rootPath, 'my_new-design'));
    writeFileSync(join(a!.rootPath, 'my_new-design', 'model.stl'), 'model');
    await a!.engine.syncOnce({ settle: 'wait' });
    const proposal = pending(a!).find((i) => i.kind === 'create-design')!;
    expect(proposal).toMatchObject({ state: 'attention', attention: 'confirm-design', folder: 'my_new-design', payload: { name: 'my new design', excerpt: '', license: null } });
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(pending(a!).filter((i) => i.kind === 'create-design')).toHaveLength(1); // proposed once
    a!.engine.queue.confirm(proposal.id, { name: 'My new design', excerpt: 'Made from a folder', license: 'cc0' });
    await send(a!);
    const created = a!.engine.folders.get('my_new-design')!;
    expect(created.state).toBe('linked');
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(kinds(a!)).toEqual(['upload my_new-design/model.stl']);
    await send(a!);

    // part.stl moves to the new design's folder: uploaded there, and its deletion from the first design waits.
    renameSync(join(a!.rootPath, folder, 'part.stl'), join(a!.rootPath, 'my_new-design', 'part.stl'));
    await a!.engine.syncOnce({ settle: 'wait' });
    expect(kinds(a!)).toEqual([`delete-remote/confirm-delete ${folder}/part.stl`, 'upload my_new-design/part.stl']);
    expect(pending(a!).find((i) => i.kind === 'delete-remote')!.reason).toMatch(/moved from .* to my_new-design/);
    await send(a!);
    expect((await api.listDocuments(created.designId!)).map((d) => d.name).sort()).toEqual(['model.stl', 'part.stl']);
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['part.stl']);
    expect(existsSync(join(a!.rootPath, folder, 'part.stl'))).toBe(false); // not brought back while the delete waits
    appendFileSync(join(a!.rootPath, 'my_new-design', 'part.stl'), '');
  });
});
