import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueItemView } from '../../../shared';
import { tempDir } from '../cache/cache-fixtures';
import { exportStl, loadToolSave, realTools, replayToolSave, sliceTo3mf, sliceToGcode, type ToolSaveFixture } from '../../support/tool-saves';
import { until } from '../../../harness/until';
import { pending, type ComputerOptions } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';
import { EMPTY_SETTLE_MS } from '../../../electron/engine/sync/sync-engine';

/*
 * Designers' real tools writing into a watched design folder, while sync runs as `design-sync sync --watch` runs it:
 * the engine started (first pass, then the watcher) and the queue runner sending, with the tests' short settle time.
 * The real OpenSCAD, PrusaSlicer and rsync run where installed; Blender's and FreeCAD's saves are replayed from
 * recordings (test/fixtures/tool-saves/README.md), so those always run.
 */

const sync = useSyncService({ userPrefix: 'tools' });
const watchers: FSWatcher[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const watcher of watchers.splice(0)) watcher.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const WAIT_MS = 30_000;
const TEST_MS = 60_000;

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

function installed(command: string): boolean {
  return spawnSync('which', [command], { encoding: 'utf8' }).status === 0;
}

interface OnService {
  name: string;
  kind: 'document' | 'image';
  id: number;
  /** The SHA-1 of the content the service received (documents only). */
  modelhash: string | null;
  url: string | null;
}

/** A design folder being watched and sent from, with what the test saw happen along the way. */
async function watchedBracket(options: ComputerOptions = {}) {
  const bracket = await sync.syncedFolder(0, options);
  const { computer, api, design, folder, dir } = bracket;
  // Every state every queue item went through, as the queue told it (a merged item keeps its id, changes its kind).
  const seen: QueueItemView[] = [];
  computer.engine.queue.on('change', (event) => {
    if (event.type === 'item') seen.push(event.item);
  });
  // Every name the service listed at any look the test took.
  const everOnService = new Set<string>();
  await computer.engine.start();
  computer.runner.start();

  async function onService(): Promise<OnService[]> {
    const [documents, images] = await Promise.all([api.listDocuments(design.id), api.listImages(design.id)]);
    const files: OnService[] = [
      ...documents.map((d) => ({ name: d.name, kind: 'document' as const, id: d.id, modelhash: d.modelhash, url: d.file.url })),
      ...images.map((i) => ({ name: i.name, kind: 'image' as const, id: i.id, modelhash: null, url: i.file.url })),
    ].sort((a, b) => a.name.localeCompare(b.name));
    for (const file of files) everOnService.add(file.name);
    return files;
  }

  /** Waits until the design's documents on the service are exactly these names with these bytes (by the service's SHA-1). */
  async function untilDocuments(expected: Record<string, Buffer>): Promise<OnService[]> {
    const want = Object.entries(expected).map(([name, bytes]) => `${name} ${sha1(bytes)}`).sort();
    let have: string[] = [];
    try {
      return await until(`the service to hold ${want.join(', ')}`, async () => {
        const files = await onService();
        have = files.map((file) => `${file.name} ${file.modelhash ?? file.kind}`).sort();
        return JSON.stringify(have) === JSON.stringify(want) ? files : null;
      }, WAIT_MS);
    } catch (error) {
      throw new Error(`${(error as Error).message}; it holds ${have.join(', ') || 'nothing'}; queue: ${JSON.stringify(queueNow())}`);
    }
  }

  /** The queue as it is, in short (for failure messages). */
  const queueNow = () => computer.engine.queue.list().map((item) => `${item.id} ${item.kind} ${item.state} ${item.path ?? ''}`);

  async function downloaded(file: OnService): Promise<Buffer> {
    expect(file.url, `${file.name} has an address on the service`).not.toBeNull();
    const response = await api.download(file.url!);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  /** Sync has nothing left to do: no scan running or due, nothing waiting to be sent. */
  async function quiet(): Promise<void> {
    await computer.engine.idle();
    await computer.runner.waitForIdle({ timeoutMs: WAIT_MS });
    await computer.engine.idle();
    expect(pending(computer)).toEqual([]);
  }

  /** The items of one file (in the design folder), in order: kind, final state, and the SHA-1 of the version queued. */
  function itemsOf(name: string): [string, string, string | null][] {
    return computer.engine.queue.list().filter((item) => item.path === `${folder}/${name}`).map((item) => [item.kind, item.state, item.fileSha1]);
  }

  /**
   * The file went up as one document: what was sent of it is one upload, then only replacements (a save sync caught
   * before the tool's next one), the last of the final version; never a deletion. Returns the kinds sent. An item
   * whose file was between two renames when its turn came is withdrawn (cancelled): the next scan queues it again.
   * (The bytes the service holds are compared by the caller.)
   */
  function sentAsOneDocument(name: string, final: Buffer): string[] {
    const items = itemsOf(name);
    const sent = items.filter(([, state]) => state === 'done');
    expect(sent.map(([kind]) => kind), name).toEqual(['upload', ...sent.slice(1).map(() => 'replace')]);
    // null: the runner found a newer version than the one queued, and sent that one once it had settled.
    expect([sha1(final), null], name).toContain(sent.at(-1)![2]);
    const others = items.filter(([, state]) => state !== 'done').map(([kind, state]) => `${kind} ${state}`);
    expect(others.filter((other) => other !== 'upload cancelled' && other !== 'replace cancelled'), name).toEqual([]);
    return sent.map(([kind]) => kind);
  }

  /** Every path that was ever in the queue, whatever became of its item. */
  const queuedPaths = () => new Set(seen.flatMap((item) => (item.path ? [item.path] : [])));

  return { computer, api, design, folder, dir, seen, everOnService, onService, untilDocuments, downloaded, quiet, itemsOf, sentAsOneDocument, queuedPaths };
}

/** The names that appeared in `dir` (inotify, through fs.watch): shows which temporaries a tool really went through. */
function namesAppearing(dir: string): Set<string> {
  const names = new Set<string>();
  watchers.push(watch(dir, (_event, name) => {
    if (name) names.add(name);
  }));
  return names;
}

/** No deletion was ever sent to the service (a proposed one waits for the person; none may have gone out). */
function noDeletionSent(seen: QueueItemView[]) {
  expect(seen.filter((item) => item.kind === 'delete-remote').map((item) => [item.path, item.state])).toEqual([]);
}

describe.skipIf(!realTools().openscad)('OpenSCAD exporting an STL into a watched design folder', () => {
  it('sends the exported part.stl once, then its re-export as one replacement, never a half-written file', async () => {
    const w = await watchedBracket();
    const stl = join(w.dir, 'part.stl');
    const path = `${w.folder}/part.stl`;

    // 14,162 facets, 2.8 MB of ASCII STL: OpenSCAD writes it in hundreds of writes under its final name, and a
    // re-export empties the file first (O_TRUNC) and writes it again in place.
    await exportStl('sphere(r = 20, $fn = 120);\n', stl);
    const v1 = readFileSync(stl);
    expect(v1.length).toBeGreaterThan(1_000_000);
    const [sent1] = await w.untilDocuments({ 'part.stl': v1 });

    await exportStl('scale([1.5, 1, 0.75]) sphere(r = 20, $fn = 120);\n', stl);
    const v2 = readFileSync(stl);
    expect(sha1(v2)).not.toBe(sha1(v1));
    const [sent2] = await w.untilDocuments({ 'part.stl': v2 });
    await w.quiet();

    // Exactly one part.stl, the same document replaced, holding the final bytes.
    const files = await w.onService();
    expect(files.map((file) => [file.name, file.kind])).toEqual([['part.stl', 'document']]);
    expect(sent2!.id).toBe(sent1!.id);
    expect((await w.downloaded(files[0]!)).equals(v2)).toBe(true);
    // One upload of the first export, one replace with the second: nothing queued of a file caught mid-write.
    expect(w.itemsOf('part.stl')).toEqual([['upload', 'done', sha1(v1)], ['replace', 'done', sha1(v2)]]);
    expect(w.seen.filter((item) => item.path === path).every((item) => item.kind === 'upload' || item.kind === 'replace')).toBe(true);
    expect([...w.everOnService]).toEqual(['part.stl']);
    noDeletionSent(w.seen);
  }, TEST_MS);

  it('an empty file that stays empty is sent once it stayed so for a while, not at once', async () => {
    const w = await watchedBracket({ tuning: { debounceMs: 5, emptySettleMs: 1_500 } });
    const started = Date.now();
    writeFileSync(join(w.dir, 'notes.txt'), '');
    await w.untilDocuments({ 'notes.txt': Buffer.alloc(0) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
  });

  // OpenSCAD opens its output with O_TRUNC, then converts the CGAL result for 0.3–1 s (minutes for a large model)
  // before its first write: the emptied part.stl is never taken for a finished file (an empty file waits until it
  // stayed empty for emptySettleMs), so the service never holds an empty part.stl.
  it('a re-export OpenSCAD empties first and writes only after converting its model is never sent empty', async () => {
    // Scans while OpenSCAD works (debounce 5 ms), as they happen during any export longer than the debounce. The
    // emptied file waits as long as the app lets it (the computers' 300 ms is shorter than OpenSCAD's conversion on a
    // loaded machine, which then sent the empty file as any file left empty that long is).
    const w = await watchedBracket({ tuning: { debounceMs: 5, emptySettleMs: EMPTY_SETTLE_MS } });
    const stl = join(w.dir, 'part.stl');
    await exportStl('cube(20);\n', stl);
    const v1 = readFileSync(stl);
    await w.untilDocuments({ 'part.stl': v1 });

    // Every version of part.stl the service held, looked at every 30 ms while OpenSCAD exports.
    const held = new Set<string>();
    let looking = true;
    const looker = (async () => {
      while (looking) {
        for (const file of await w.onService()) held.add(file.modelhash ?? '');
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    })();
    try {
      await exportStl('difference() { sphere(r = 20, $fn = 80); cube(15); }\n', stl);
      await w.untilDocuments({ 'part.stl': readFileSync(stl) });
    } finally {
      looking = false;
      await looker;
    }
    await w.quiet();
    const v2 = readFileSync(stl);
    expect(sha1(v2)).not.toBe(sha1(v1));
    const others = [...held].filter((hash) => hash !== sha1(v1) && hash !== sha1(v2));
    expect(others.map((hash) => (hash === sha1(Buffer.alloc(0)) ? 'empty (0 bytes)' : hash)), 'versions of part.stl other than the two exports').toEqual([]);
    expect((await w.downloaded((await w.onService())[0]!)).equals(v2)).toBe(true);
  }, TEST_MS);
});

describe.skipIf(!realTools().openscad || !realTools().prusaSlicer)('PrusaSlicer exporting a 3MF and slicing G-code into a watched design folder', () => {
  const models = ['cube([20, 20, 10]);\n', 'cube([30, 20, 12]);\n'];

  it('sends part.3mf and part.gcode with their final bytes, replaced in place, and never a .tmp or .tmp.postprocess name', async () => {
    const w = await watchedBracket();
    const appeared = namesAppearing(w.dir);
    const stl = join(w.dir, 'part.stl');
    const threeMf = join(w.dir, 'part.3mf');
    const gcode = join(w.dir, 'part.gcode');

    const rounds: OnService[][] = [];
    const finals: Record<string, Buffer>[] = [];
    for (const model of models) {
      await exportStl(model, stl);
      await sliceTo3mf(stl, threeMf);
      // A re-slice first deletes the old part.gcode, writes part.gcode.tmp, then part.gcode.tmp.postprocess, renames.
      await sliceToGcode(stl, gcode);
      const now = { 'part.stl': readFileSync(stl), 'part.3mf': readFileSync(threeMf), 'part.gcode': readFileSync(gcode) };
      finals.push(now);
      rounds.push(await w.untilDocuments(now));
    }
    await w.quiet();

    // PrusaSlicer did go through its temporaries in the design folder (else this test would prove nothing).
    expect(appeared).toContain('part.gcode.tmp');
    expect(appeared).toContain('part.gcode.tmp.postprocess');

    const files = await w.onService();
    expect(files.map((file) => file.name)).toEqual(['part.3mf', 'part.gcode', 'part.stl']);
    const final = finals[1]!;
    for (const file of files) expect((await w.downloaded(file)).equals(final[file.name]!), file.name).toBe(true);
    // The second round replaced the same documents (the G-code was not deleted and uploaded anew).
    expect(rounds[1]!.map((file) => file.id)).toEqual(rounds[0]!.map((file) => file.id));
    for (const name of ['part.3mf', 'part.gcode']) {
      expect(w.itemsOf(name), name).toEqual([['upload', 'done', sha1(finals[0]![name]!)], ['replace', 'done', sha1(final[name]!)]]);
    }

    // No temporary name ever reached the queue or the service.
    const temporary = /\.tmp\d*$|\.tmp\.postprocess$/;
    expect([...w.queuedPaths()].filter((path) => temporary.test(path))).toEqual([]);
    expect([...w.everOnService].filter((name) => temporary.test(name))).toEqual([]);
    expect([...w.everOnService].sort()).toEqual(['part.3mf', 'part.gcode', 'part.stl']);
    noDeletionSent(w.seen);
  }, TEST_MS);
});

/** The recorded saves: the design file, the backup the tool leaves beside it, and the built-in entry that holds it back. */
const SAVES: { fixture: ToolSaveFixture; file: string; backup: string; ruleId: string; tool: string }[] = [
  { fixture: 'blender', file: 'scene.blend', backup: 'scene.blend1', ruleId: 'blender-backup', tool: 'Blender' },
  { fixture: 'freecad', file: 'housing.FCStd', backup: 'housing.FCStd1', ruleId: 'freecad-backup', tool: 'FreeCAD' },
  { fixture: 'freecad-fcbak', file: 'housing.FCStd', backup: 'housing.20261129-044518.FCBak', ruleId: 'freecad-backup', tool: 'FreeCAD' },
];

/**
 * How the save meets sync. 'pauses': the recorded steps with 30 ms between them (the watcher's 300 ms debounce lets the
 * whole save pass before it looks). 'caught-up': sync sends each save before the tool begins its next one, so the
 * backup is made from a synced file and the synced file vanishes between two renames. 'looked-at': the engine scans
 * between the tool's steps (debounce 5 ms), as it does during a save slower than its debounce; a scan that lands
 * between the two renames sees the file gone and proposes its deletion (it waits for the person), which its return
 * turns into the replacement.
 */
type Meeting = 'pauses' | 'caught-up' | 'looked-at';
const MEETING_WORDS: Record<Meeting, string> = {
  pauses: 'replayed with 30 ms pauses',
  'caught-up': 'saved again after sync sent each save',
  'looked-at': 'with the engine scanning between the save\'s steps',
};

describe('recorded saves of Blender and FreeCAD, replayed into a watched design folder', () => {
  for (const { fixture, file, backup, ruleId, tool } of SAVES) {
    for (const meeting of ['pauses', 'caught-up', 'looked-at'] as Meeting[]) {
      it(`${fixture}, ${MEETING_WORDS[meeting]}: only ${file} reaches the service, with its final bytes; ${backup} is held back (${ruleId}); the save's temporaries are never queued`, async () => {
        const w = await watchedBracket(meeting === 'looked-at' ? { tuning: { debounceMs: 5 } } : {});
        const save = await loadToolSave(fixture);
        const temporaries = [...new Set(save.steps.flatMap((step) => (step.op === 'open' ? [step.path] : [])))];
        const saves = save.steps.filter((step) => step.op === 'open').length;
        // The tool writes through temporary names (one per save for FreeCAD): what must never be queued.
        expect(temporaries.length).toBeGreaterThan(0);
        for (const name of temporaries) expect(name === `${file}@` || /^housing\.FCStd\.[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(name), name).toBe(true);

        const scans = () => w.computer.events.filter((event) => event.type === 'scan').length;
        const scansBefore = scans();
        let opens = 0;
        const { finalFiles } = await replayToolSave(fixture, w.dir, {
          pauseMs: 30,
          beforeStep: async (step) => {
            if (meeting !== 'caught-up' || step.op !== 'open' || opens++ === 0) return;
            // The next save begins only once the last one is on the service.
            await w.untilDocuments({ [file]: readFileSync(join(w.dir, file)) });
            await w.quiet();
          },
        });
        expect(finalFiles).toEqual([backup, file].sort());
        // The variants did meet the save as they say: the engine looked at the folder between the saves, or its steps.
        if (meeting === 'caught-up') expect(scans() - scansBefore).toBeGreaterThanOrEqual(saves - 1);
        if (meeting === 'looked-at') expect(scans() - scansBefore).toBeGreaterThanOrEqual(5);
        const final = readFileSync(join(w.dir, file));

        await w.untilDocuments({ [file]: final });
        const backupPath = `${w.folder}/${backup}`;
        await until(`${backup} held back`, () => w.computer.engine.heldBack.get(backupPath), WAIT_MS);
        await w.quiet();

        const files = await w.onService();
        expect(files.map((f) => f.name)).toEqual([file]);
        expect((await w.downloaded(files[0]!)).equals(final)).toBe(true);
        expect(w.computer.engine.heldBack.list().map((entry) => entry.path)).toEqual([backupPath]);
        expect(w.computer.engine.heldBack.get(backupPath)).toMatchObject({ onService: false, reason: { source: 'built-in', ruleId, tool } });

        const queued = w.queuedPaths();
        expect(queued.has(backupPath), backup).toBe(false);
        for (const name of temporaries) expect(queued.has(`${w.folder}/${name}`), name).toBe(false);
        expect([...w.everOnService]).toEqual([file]);
        const sent = w.sentAsOneDocument(file, final);
        // Each save sync caught up with was sent: the first as the upload, each later one as a replacement.
        if (meeting === 'caught-up') expect(sent).toEqual(['upload', ...Array<string>(saves - 1).fill('replace')]);
        noDeletionSent(w.seen);
      }, TEST_MS);
    }
  }
});

describe.skipIf(!installed('rsync'))('rsync copying images into a watched design folder', () => {
  it('sends both images once, as images, and never rsync\'s .name.XXXXXX temporaries', async () => {
    const w = await watchedBracket();
    const source = tempDir('rsync-source');
    dirs.push(source);
    const names = ['jpg-large.jpg', 'png-sample.png'];
    for (const name of names) copyFileSync(join(import.meta.dirname, '../../fixtures/images', name), join(source, name));
    const appeared = namesAppearing(w.dir);

    await new Promise<void>((resolve, reject) => {
      execFile('rsync', ['-a', `${source}/`, `${w.dir}/`], { timeout: WAIT_MS }, (error, _stdout, stderr) => {
        if (error) reject(new Error(`rsync failed: ${String(stderr).trim() || error.message}`));
        else resolve();
      });
    });

    await until('both images on the service', async () => {
      const files = await w.onService();
      return files.length === 2 && files.every((file) => file.kind === 'image') && JSON.stringify(files.map((file) => file.name)) === JSON.stringify(names);
    }, WAIT_MS);
    await w.quiet();

    // rsync wrote each file under a hidden temporary name, then renamed it (else this test would prove nothing).
    for (const name of names) expect([...appeared].some((seen) => new RegExp(`^\\.${name.replace(/\./g, '\\.')}\\.[A-Za-z0-9]{6}$`).test(seen)), name).toBe(true);

    const files = await w.onService();
    expect(files.map((file) => [file.name, file.kind])).toEqual(names.map((name) => [name, 'image']));
    for (const file of files) expect((await w.downloaded(file)).equals(readFileSync(join(source, file.name))), file.name).toBe(true);
    for (const name of names) {
      expect(w.itemsOf(name), name).toEqual([['upload', 'done', sha1(readFileSync(join(source, name)))]]);
    }
    expect(w.seen.filter((item) => item.path?.startsWith(`${w.folder}/`)).every((item) => item.fileKind === 'image')).toBe(true);
    const hidden = [...w.queuedPaths()].filter((path) => path.split('/').pop()!.startsWith('.'));
    expect(hidden).toEqual([]);
    expect([...w.everOnService].sort()).toEqual(names);
    noDeletionSent(w.seen);
  }, TEST_MS);
});
