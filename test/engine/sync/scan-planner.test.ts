import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../service/seed/seeded-random';
import type { QueueItem } from '../../../electron/engine/queue/queue-item';
import type { BaseFile } from '../../../electron/engine/sync-state/base-files';
import { compileIgnoreFile, holdReason, parseIgnoreText, type HoldRules } from '../../../electron/engine/sync/ignore/never-sent-rules';
import type { LocalEntry } from '../../../electron/engine/sync/local-files';
import {
  decideScan, indexBases, MASS_MISSING_MINIMUM, MASS_MISSING_RATIO, refusalOf, sortFolder, type OpenSlot, type ReadCandidate, type ScanDecision, type ScanFacts,
} from '../../../electron/engine/sync/scan-decisions';
import { baseOf, DESIGN, entryOf, FIRST_SEED, FOLDER, SEEDS, SHAS, TIMES, tools } from './planner-fixtures';

/**
 * The scan's planner alone (scan-decisions.ts), on random inputs: no disk. Each seed gives one design folder (files
 * synced or not, changed or not, some named so that they are never sent, synced files gone) and its queue, sorted by
 * sortFolder with the built-in list and, in half of them, an ignore file; the checks are rules decideScan keeps
 * whatever it is given. A failure names its seed: scanInput(seed) rebuilds its input.
 */

/** A design folder of random files (some named so that they are never sent), synced or not, changed or not, and its queue. */
function scanInput(seed: number): { facts: ScanFacts; rules: HoldRules; names: string[]; bases: Map<string, BaseFile> } {
  const random = seededRandom(seed);
  const { chance, oneOf, int } = tools(random);
  const rootIgnore = chance(0.5) ? compileIgnoreFile('.designsyncignore', parseIgnoreText('*.scad\ndraft-*\n').lines) : null;
  const rules: HoldRules = { root: rootIgnore, folder: null };
  const pool = ['a.stl', 'b.stl', 'c.3mf', 'd.png', 'e.scad', 'draft-f.stl', 'g.stl~', 'h.blend1', 'i.stl.bak', 'j.exe', 'k.stl', 'l.stl', 'm.png'];
  const names = [...new Set(Array.from({ length: int(1, 9) }, () => oneOf(pool)))];
  const bases = new Map<string, BaseFile>();
  const entries: LocalEntry[] = [];
  let remoteId = 500;
  for (const name of names) {
    const path = `${FOLDER}/${name}`;
    const synced = chance(0.5);
    const base = synced ? { ...baseOf(path, remoteId++, oneOf(SHAS), oneOf(TIMES), 50), inode: `3:${name}` } : null;
    if (base) bases.set(path, base);
    if (!synced || chance(0.75)) entries.push(entryOf(name, base && chance(0.5) ? base.size : 80, base && chance(0.5) ? base.mtimeMs : 4000, chance(0.2) ? `3:${oneOf(pool)}` : `3:${name}`));
  }
  // Synced files whose path is gone and whose name the folder no longer holds.
  for (let i = int(0, 3); i > 0; i--) {
    const path = `${FOLDER}/gone${i}.stl`;
    bases.set(path, { ...baseOf(path, remoteId++, oneOf(SHAS), oneOf(TIMES), 80), inode: `3:gone${i}` });
  }
  const sorted = sortFolder(FOLDER, DESIGN, entries, bases, rules, () => 'a named pipe');
  const decidable: ReadCandidate[] = sorted.candidates.map((c) => {
    const sha1 = c.base && chance(0.3) ? c.base.sha1 : oneOf(SHAS);
    return { ...c, sha1, refusal: c.base ? null : refusalOf(c.name, new Uint8Array(0)) };
  });
  const open = new Map<string, OpenSlot>();
  let itemId = 1;
  const item = (path: string, kind: QueueItem['kind'], state: QueueItem['state'], fileSha1: string | null): QueueItem =>
    ({ id: itemId++, kind, state, path, folder: FOLDER, designId: DESIGN, fileSha1, attention: state === 'attention' ? 'confirm-delete' : null } as QueueItem);
  for (const path of [...names.map((n) => `${FOLDER}/${n}`), ...[...bases.keys()]]) {
    if (!chance(0.2) || open.has(path)) continue;
    const running = chance(0.3);
    open.set(path, { running: running ? item(path, 'upload', 'running', oneOf(SHAS)) : null, pending: running ? null : item(path, oneOf(['upload', 'replace', 'rename', 'delete-remote'] as const), 'waiting', oneOf(SHAS)) });
  }
  const missing = new Map(sorted.missing.map((b) => [b.path, b]));
  const pendingInFolders = [...open.values()].flatMap((slot) => (slot.pending ? [slot.pending] : []));
  const facts: ScanFacts = {
    rootPath: '/sync', decidable, missing, open, dismissed: new Map(), latest: new Map(), published: new Map([[DESIGN, chance(0.3) ? 'Gear' : null]]),
    index: indexBases([...bases.values()]), goneElsewhere: new Set(), rulesOfFolder: new Map([[FOLDER, rules]]), heldTop: new Set(), rootRules: rules,
    heldSynced: sorted.heldSynced, baseCount: bases.size, allowManyMissing: chance(0.2), pendingInFolders, onDisk: sorted.onDisk, stillFiles: new Set(),
  };
  return { facts, rules, names, bases };
}

const enqueued = (decisions: readonly ScanDecision[]) => decisions.flatMap((d) => (d.type === 'enqueue' ? [d.item] : []));

/** The scan's inputs once its decisions were applied: what it queued is waiting, what it withdrew is gone, what it recorded is synced. */
function afterScan(facts: ScanFacts, decisions: readonly ScanDecision[]): ScanFacts {
  const open = new Map(facts.open);
  const latest = new Map(facts.latest);
  let id = 10_000;
  for (const decision of decisions) {
    if (decision.type === 'cancel') {
      const slot = open.get(decision.path);
      if (slot?.pending?.id === decision.id) open.set(decision.path, { ...slot, pending: null });
    }
    if (decision.type === 'enqueue' && decision.item.path) {
      const pending = { id: id++, kind: decision.item.kind, state: decision.item.attention ? 'attention' : 'waiting', path: decision.item.path, fileSha1: decision.item.file?.sha1 ?? null, remoteId: decision.item.remoteId ?? null, attention: decision.item.attention?.kind ?? null } as QueueItem;
      open.set(decision.item.path, { running: open.get(decision.item.path)?.running ?? null, pending });
      latest.set(decision.item.path, pending);
    }
  }
  const refreshed = new Set(decisions.flatMap((d) => (d.type === 'refresh' ? [d.base.path] : d.type === 'move-base' ? [d.to] : [])));
  const moved = new Set(decisions.flatMap((d) => (d.type === 'move-base' ? [d.from] : [])));
  const missing = new Map([...facts.missing].filter(([path]) => !moved.has(path)));
  const pendingInFolders = [...open.values()].flatMap((slot) => (slot.pending ? [slot.pending] : []));
  return { ...facts, open, latest, missing, pendingInFolders, decidable: facts.decidable.filter((c) => !refreshed.has(c.path)) };
}

describe('the scan decides on random inputs', () => {
  const seeds = Array.from({ length: SEEDS }, (_, i) => FIRST_SEED + i);

  it('never queues an upload, a new version or a rename of a name that is never sent', () => {
    let held = 0;
    for (const seed of seeds) {
      const { facts, rules, names } = scanInput(seed);
      held += names.filter((n) => holdReason(`${FOLDER}/${n}`, rules)).length;
      for (const item of enqueued(decideScan(facts).decisions)) {
        if (item.kind === 'delete-remote') continue;
        expect(holdReason(item.path!, rules), `seed ${seed}: ${item.kind} of ${item.path}`).toBeNull();
      }
    }
    expect(held).toBeGreaterThan(100);
  });

  it('queues at most one change of each file, and proposes a deletion only of a synced file gone from the folder', () => {
    for (const seed of seeds) {
      const { facts, bases } = scanInput(seed);
      const { decisions, stop } = decideScan(facts);
      const paths = enqueued(decisions).map((item) => item.path);
      expect(new Set(paths).size, `seed ${seed}`).toBe(paths.length);
      for (const item of enqueued(decisions)) {
        if (item.kind !== 'delete-remote') continue;
        expect(facts.onDisk.has(item.path!), `seed ${seed}: ${item.path} is there`).toBe(false);
        expect(bases.has(item.path!), `seed ${seed}: ${item.path} was never synced`).toBe(true);
        expect(item.attention?.kind, `seed ${seed}`).toBe('confirm-delete');
      }
      if (stop) expect(decisions).toEqual([]);
    }
  });

  it('stops instead of proposing deletions when most synced files vanish at once, unless told they were meant', () => {
    let stops = 0;
    for (const seed of seeds) {
      const { int } = tools(seededRandom(seed));
      const { facts } = scanInput(seed);
      const missing = new Map(Array.from({ length: int(0, 14) }, (_, i) => baseOf(`${FOLDER}/lost${i}.stl`, 700 + i, 'a1', '2026-01-01', 10)).map((b) => [b.path, b]));
      const many = { ...facts, allowManyMissing: false, missing, baseCount: missing.size + int(0, 12), decidable: [] };
      const { stop, decisions } = decideScan(many);
      const expected = missing.size > MASS_MISSING_MINIMUM && missing.size > many.baseCount * MASS_MISSING_RATIO;
      expect(stop !== null, `seed ${seed}`).toBe(expected);
      if (!stop) continue;
      stops++;
      expect(decisions).toEqual([]);
      const meant = decideScan({ ...many, allowManyMissing: true });
      expect(meant.stop, `seed ${seed}`).toBeNull();
      expect(enqueued(meant.decisions).filter((item) => item.kind === 'delete-remote').length, `seed ${seed}`).toBeGreaterThan(0);
    }
    expect(stops).toBeGreaterThan(20);
  });

  it('queues nothing new when it looks again at what its decisions left', () => {
    let queued = 0;
    for (const seed of seeds) {
      const { facts } = scanInput(seed);
      const first = decideScan(facts);
      queued += enqueued(first.decisions).length;
      const again = decideScan(afterScan(facts, first.decisions));
      expect(again.decisions, `seed ${seed}`).toEqual([]);
    }
    expect(queued).toBeGreaterThan(200);
  });
  it('a synced file gone whose name is held back stays on the service, unless the service renamed it to a name that is sent', () => {
    const rules: HoldRules = { root: compileIgnoreFile('.designsyncignore', parseIgnoreText('f*3.*\n').lines), folder: null };
    const held = baseOf(`${FOLDER}/f3.scad`, 3, 'a1', '2026-01-01', 10);
    const renamedThere = { ...baseOf(`${FOLDER}/f13.scad`, 13, 'b2', '2026-01-01', 10), remoteName: 'w10.scad' };
    const heldThereToo = { ...baseOf(`${FOLDER}/f23.scad`, 23, 'c3', '2026-01-01', 10), remoteName: 'f33.scad' };
    const bases = new Map([held, renamedThere, heldThereToo].map((base) => [base.path, base]));
    const sorted = sortFolder(FOLDER, DESIGN, [], bases, rules, () => 'a named pipe');
    expect(sorted.missing.map((base) => base.path)).toEqual([`${FOLDER}/f13.scad`]);
  });
});
