import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileIgnoreFile, holdReason, parseIgnoreText } from '../../../electron/engine/sync/ignore/never-sent-rules';
import { IgnoreFileError } from '../../../electron/engine/sync/ignore/ignore-files';
import { isIgnoredName } from '../../../electron/engine/sync/sync-names';
import { replayToolSave } from '../../support/tool-saves';
import { until } from '../../../harness/until';
import { pending, send, type Computer } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const sync = useSyncService({ userPrefix: 'never' });

const syncedBracket = (files: number) => sync.syncedFolder(files);
const activity = (computer: Computer) => computer.engine.queue.recentActivity(100).map((entry) => entry.message);
const onService = async (api: Awaited<ReturnType<typeof syncedBracket>>['api'], designId: number) =>
  [...(await api.listDocuments(designId)).map((d) => d.name), ...(await api.listImages(designId)).map((i) => i.name)].sort();
const heldPaths = (computer: Computer) => computer.engine.heldBack.list().map((entry) => entry.path);

describe('what is never sent', () => {
  it('keeps Blender\'s backup and temporary save out, replayed from a real save, and says why each was held back', async () => {
    const { computer, api, design, folder, dir } = await syncedBracket(0);
    await replayToolSave('blender', dir);
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['scene.blend']);
    const groups = computer.engine.heldBack.groups();
    expect(groups).toEqual([expect.objectContaining({
      key: 'built-in:blender-backup', count: 1, onService: 0, examples: [`${folder}/scene.blend1`],
      reason: expect.objectContaining({ source: 'built-in', ruleId: 'blender-backup', tool: 'Blender' }),
    })]);
  });

  it('keeps FreeCAD\'s backups out, whether numbered or .FCBak, replayed from real saves', async () => {
    const { computer, api, design, dir } = await syncedBracket(0);
    await replayToolSave('freecad', dir);
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['housing.FCStd']);
    expect(heldPaths(computer).map((path) => path.split('/')[1])).toEqual(['housing.FCStd1']);
  });

  it('withdraws an upload queued before an ignore file came to hold its file back, when it would leave: never sent', async () => {
    const { computer, api, design, folder, dir } = await syncedBracket(0);
    writeFileSync(join(dir, 'bracket.stl'), 'solid bracket');
    writeFileSync(join(dir, 'bracket.autosave'), 'half');
    await computer.engine.syncOnce({ settle: 'wait' });
    expect(pending(computer).map((item) => item.path).sort()).toEqual([`${folder}/bracket.autosave`, `${folder}/bracket.stl`]);
    // Written by an editor after the scan queued both, before they are sent (no scan in between).
    writeFileSync(join(computer.rootPath, '.designsyncignore'), '*.autosave\n');
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['bracket.stl']);
    expect(activity(computer)).toContainEqual(`${folder}/bracket.autosave is never sent now (line 1 of .designsyncignore: *.autosave): its upload was cancelled.`);
  });

  it('holds back what the sync folder\'s ignore file names, folders too, each with its line', async () => {
    const { computer, api, design, folder, dir } = await syncedBracket(0);
    writeFileSync(join(computer.rootPath, '.designsyncignore'), '# my habits\n*.autosave\n\nrenders/\n');
    writeFileSync(join(dir, 'bracket.stl'), 'solid bracket');
    writeFileSync(join(dir, 'bracket.autosave'), 'half');
    mkdirSync(join(dir, 'renders'));
    writeFileSync(join(dir, 'renders', 'front.png'), 'png');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['bracket.stl']);
    expect(computer.engine.heldBack.list().map(({ path, reason }) => [path, reason])).toEqual([
      [`${folder}/bracket.autosave`, { source: 'ignore-file', file: '.designsyncignore', line: 2, pattern: '*.autosave' }],
      [`${folder}/renders/`, { source: 'ignore-file', file: '.designsyncignore', line: 4, pattern: 'renders/' }],
    ]);
    // Not held back any more once the line is gone: the next scan sends it.
    await computer.engine.saveIgnoreFile('renders/\n');
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['bracket.autosave', 'bracket.stl']);
  });

  it('a design folder\'s own ignore file applies inside it, and can let through what the sync folder\'s holds back', async () => {
    const { computer, api, design, folder, dir } = await syncedBracket(0);
    writeFileSync(join(computer.rootPath, '.designsyncignore'), '*.step\n');
    writeFileSync(join(dir, '.designsyncignore'), '!part.step\nnotes.txt\n');
    for (const name of ['part.step', 'other.step', 'notes.txt', 'part.stl']) writeFileSync(join(dir, name), name);
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['part.step', 'part.stl']);
    expect(computer.engine.heldBack.list().map(({ path, reason }) => [path, reason.source === 'ignore-file' ? `${reason.file}:${reason.line}` : reason.ruleId])).toEqual([
      [`${folder}/notes.txt`, `${folder}/.designsyncignore:2`],
      [`${folder}/other.step`, '.designsyncignore:1'],
    ]);
  });

  it('a file that becomes ignored after it was sent stays on the service, is not taken for deleted, and is said to be kept there', async () => {
    const { computer, api, design, folder } = await syncedBracket(2);
    await computer.engine.saveIgnoreFile('part-1.stl\n');
    expect(pending(computer)).toEqual([]);
    expect(computer.engine.heldBack.get(`${folder}/part-1.stl`)).toMatchObject({ onService: true });
    // Deleted here now: it is no longer kept in step, so its deletion is not proposed either.
    rmSync(join(computer.rootPath, folder, 'part-1.stl'));
    await computer.engine.syncOnce({ settle: 'wait' });
    expect(pending(computer)).toEqual([]);
    expect(await onService(api, design.id)).toEqual(['part-0.stl', 'part-1.stl']);
  });

  it('an upload still waiting when its file becomes ignored is cancelled, with a line in the activity', async () => {
    const { computer, api, design, folder, dir } = await syncedBracket(0);
    writeFileSync(join(dir, 'draft.stl'), 'draft');
    await computer.engine.syncOnce({ settle: 'wait' });
    expect(pending(computer).map((item) => [item.kind, item.path])).toEqual([['upload', `${folder}/draft.stl`]]);
    await computer.engine.saveIgnoreFile('draft.*\n');
    expect(pending(computer)).toEqual([]);
    expect(activity(computer)).toContain(`${folder}/draft.stl is never sent now (line 1 of .designsyncignore: draft.*): its upload was cancelled.`);
    await send(computer);
    expect(await onService(api, design.id)).toEqual([]);
  });

  it('refuses an ignore file with a line it cannot take, naming the line, and leaves the file as it was', async () => {
    const { computer } = await syncedBracket(0);
    await computer.engine.saveIgnoreFile('*.bak2\n');
    await expect(computer.engine.saveIgnoreFile('*.autosave\nrenders\\old\n')).rejects.toThrow(IgnoreFileError);
    await expect(computer.engine.saveIgnoreFile('*.autosave\nrenders\\old\n')).rejects.toThrow(/^Line 2 of \.designsyncignore: “renders\\old” holds a backslash: write folders with \//);
    expect(readFileSync(join(computer.rootPath, '.designsyncignore'), 'utf8')).toBe('*.bak2\n');
  });

  it('sends nothing while the ignore file cannot be used, says why, and goes on once it is fixed', async () => {
    const { computer, api, design, dir } = await syncedBracket(0);
    writeFileSync(join(computer.rootPath, '.designsyncignore'), 'secret\\stuff\n');
    writeFileSync(join(dir, 'part.stl'), 'part');
    await computer.engine.syncOnce({ settle: 'wait' });
    expect(pending(computer)).toEqual([]);
    expect(activity(computer).join('\n')).toContain('Line 1 of .designsyncignore: “secret\\stuff” holds a backslash');
    expect(activity(computer).join('\n')).toContain('Nothing is sent until .designsyncignore is corrected');
    if (process.getuid?.() !== 0) {
      // Unreadable: the same (root reads whatever the mode says).
      writeFileSync(join(computer.rootPath, '.designsyncignore'), '*.bak\n');
      chmodSync(join(computer.rootPath, '.designsyncignore'), 0o000);
      await computer.engine.syncOnce({ settle: 'wait' });
      expect(pending(computer)).toEqual([]);
      chmodSync(join(computer.rootPath, '.designsyncignore'), 0o644);
    }
    writeFileSync(join(computer.rootPath, '.designsyncignore'), 'secret/stuff\n');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['part.stl']);
  });

  it('the watcher takes an edit of the ignore file at once: a file it stops holding back is sent without a rescan', async () => {
    const { computer, api, design, folder, dir } = await syncedBracket(0);
    writeFileSync(join(computer.rootPath, '.designsyncignore'), '*.obj\n');
    copyFileSync(join(import.meta.dirname, '../../fixtures/models/box.obj'), join(dir, 'box.obj'));
    await computer.engine.start();
    computer.runner.start();
    await until('box.obj held back', () => computer.engine.heldBack.get(`${folder}/box.obj`) !== null, 10_000);
    writeFileSync(join(computer.rootPath, '.designsyncignore'), '# nothing\n');
    await until('box.obj on the service', async () => (await onService(api, design.id)).includes('box.obj'), 15_000);
    expect(computer.engine.heldBack.count()).toBe(0);
  });
});

describe('the built-in list', () => {
  it('applies inside a design\'s folder, not to the folder: a design named like a tool\'s backup folder is synced', async () => {
    const { token, api } = sync.user('never');
    const design = await api.createDesign({ name: 'Board backups', excerpt: 'Spare boards', license: 'cc0' });
    const computer = await sync.computer(token);
    await computer.engine.syncOnce({ settle: 'wait' });
    const folder = computer.engine.folders.ofDesign(design.id)!.folder;
    expect(holdReason(`${folder}/`, { root: null, folder: null })).toBeNull();
    writeFileSync(join(computer.rootPath, folder, 'board.kicad_pcb'), 'board');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect(await onService(api, design.id)).toEqual(['board.kicad_pcb']);
  });


  it('holds back every name sync always skipped (editors\' and systems\' files, partial downloads)', () => {
    for (const name of ['.DS_Store', '.~lock.part.odt#', 'part.stl.swp', 'Thumbs.db', 'desktop.ini', 'ehthumbs.db', '~$part.docx', 'part.stl~', '#part.scad#', 'part.stl.part', 'part.crdownload', 'part.tmp']) {
      expect(isIgnoredName(name), name).toBe(true);
      expect(holdReason(`folder/${name}`, { root: null, folder: null }), name).not.toBeNull();
    }
  });

  it('names the most specific entry when several match', () => {
    expect(holdReason('folder/plate.3mf.tmp', { root: null, folder: null })).toMatchObject({ ruleId: 'bambu-studio-save-temp' });
    expect(holdReason('folder/.DS_Store', { root: null, folder: null })).toMatchObject({ ruleId: 'macos-ds-store' });
    expect(holdReason('folder/.x.swp', { root: null, folder: null })).toMatchObject({ ruleId: 'vim-swap' });
    expect(holdReason('folder/.hidden-note', { root: null, folder: null })).toMatchObject({ ruleId: 'hidden' });
  });

  it('cannot be overridden by an ignore file\'s "!" line', () => {
    const root = compileIgnoreFile('.designsyncignore', parseIgnoreText('!*.blend1\n').lines);
    expect(holdReason('folder/scene.blend1', { root, folder: null })).toMatchObject({ source: 'built-in', ruleId: 'blender-backup' });
  });
});
