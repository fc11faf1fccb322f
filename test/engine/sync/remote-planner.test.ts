import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../service/seed/seeded-random';
import type { LocalEntry } from '../../../electron/engine/sync/local-files';
import {
  decideNewFiles, decideSyncedFiles, decisionPath, type ClashFacts, type LocalState, type NewFileFacts, type RemoteDecision, type SyncedFileFacts,
} from '../../../electron/engine/sync/remote-decisions';
import type { GoneCheck, RemoteFile } from '../../../electron/engine/sync/remote-listing';
import { localNameFor, nameKey } from '../../../electron/engine/sync/sync-names';
import { baseOf, entryOf, FIRST_SEED, FOLDER, kindOf, NAMES, SEEDS, SHAS, TIMES, tools } from './planner-fixtures';

/**
 * The remote pass's planner alone (remote-decisions.ts), on random inputs: no service, no disk. Each seed gives one
 * design's facts (its synced files as the listing, the folder and the queue show them, and the service's new files);
 * the checks are rules the planner keeps whatever it is given. A failure names its seed: remoteInput(seed) rebuilds
 * its input.
 */

function remoteFile(id: number, name: string, updatedAt: string | null, sha1: string | null): RemoteFile {
  return { kind: kindOf(name), id, name, updatedAt, url: `http://service.test/files/${id}/${encodeURIComponent(name)}`, sha1 };
}


/** One design's facts for the remote pass: its synced files as the service, the folder and the queue show them, and the service's new files. */
function remoteInput(seed: number): { synced: SyncedFileFacts[]; folder: { folder: string; entries: LocalEntry[]; clashes: Map<string, ClashFacts> }; added: NewFileFacts[] } {
  const random = seededRandom(seed);
  const { chance, oneOf, int } = tools(random);
  const synced: SyncedFileFacts[] = [];
  const usedNames = new Set<string>();
  let nextId = 100;
  for (let i = int(0, 6); i > 0; i--) {
    const name = `f${int(0, 20)}.${oneOf(['stl', 'png', '3mf'])}`;
    if (usedNames.has(nameKey(name))) continue;
    usedNames.add(nameKey(name));
    const base = baseOf(`${FOLDER}/${name}`, nextId++, oneOf(SHAS), oneOf(TIMES), 50);
    const listedRoll = random();
    const listed = listedRoll < 0.2 ? null : remoteFile(
      base.remoteId, chance(0.25) ? `w${int(0, 9)}.${name.split('.')[1]}` : base.remoteName,
      chance(0.5) ? base.remoteUpdatedAt : oneOf(TIMES), base.kind === 'document' && chance(0.7) ? (chance(0.5) ? base.sha1 : oneOf(SHAS)) : null,
    );
    const localRoll = random();
    const entry = entryOf(name, chance(0.7) ? base.size : 60, chance(0.7) ? base.mtimeMs : 2000);
    const local: LocalState = localRoll < 0.25 ? { state: 'missing' }
      : localRoll < 0.65 ? { state: 'unchanged', entry, restat: entry.size !== base.size || entry.mtimeMs !== base.mtimeMs }
      : { state: 'changed', entry: { ...entry, size: 60, mtimeMs: 2000 }, sha1: oneOf(SHAS.filter((sha) => sha !== base.sha1)) };
    const running = chance(0.1);
    const canJudge = chance(0.9);
    const gone: GoneCheck | null = listed || running || !canJudge ? null : oneOf(['gone', 'gone', 'still-there', 'unknown'] as const);
    const looked = canJudge && !running && (listed !== null || gone === 'gone');
    const fetchedSha = listed && listed.sha1 === null && listed.updatedAt !== base.remoteUpdatedAt ? oneOf(SHAS) : null;
    synced.push({
      base, canJudge, listed, running, pendingId: chance(0.3) ? 900 + i : null, deleteTurnedDown: chance(0.2), gone,
      // The local file as read, also where the pass would not look (the planner must not need it missing to be safe).
      local: looked || chance(0.5) ? local : null, remoteSha: listed?.sha1 ?? fetchedSha,
    });
  }
  const entries: LocalEntry[] = [];
  const clashes = new Map<string, ClashFacts>();
  for (const name of new Set(Array.from({ length: int(0, 4) }, () => oneOf(NAMES)))) {
    if (entries.some((e) => nameKey(e.name) === nameKey(name))) continue;
    const entry = entryOf(name, 40, 3000, `2:${name}`, chance(0.85) ? 'file' : 'directory');
    entries.push(entry);
    const isSynced = chance(0.3);
    const running = !isSynced && chance(0.15);
    clashes.set(`${FOLDER}/${name}`, { synced: isSynced, running, pendingId: chance(0.3) ? 800 + entries.length : null, sha1: isSynced || running || entry.type !== 'file' ? null : oneOf(SHAS), entry });
  }
  const added: NewFileFacts[] = [];
  for (let i = int(0, 4); i > 0; i--) {
    const file = remoteFile(nextId++, oneOf(NAMES), oneOf(TIMES), chance(0.5) ? oneOf(SHAS) : null);
    const clash = [...clashes.values()].find((c) => nameKey(c.entry.name) === nameKey(localNameFor(file.kind, file)));
    const compared = clash && !clash.synced && !clash.running && clash.entry.type === 'file';
    added.push({ file, remoteSha: file.sha1 ?? (compared ? oneOf(SHAS) : null) });
  }
  return { synced, folder: { folder: FOLDER, entries, clashes }, added };
}

const REMOVES_RECORD = new Set(['forget', 'trash', 'offer-again']);
const TOUCHES_LOCAL = new Set(['restore', 'bring-back', 'replace', 'trash', 'conflict-synced']);

/**
 * The facts the next pass would read once the decisions were applied as decided (a fresh listing of the same service,
 * the files placed where the decisions put them, the items they cancelled gone).
 */
function afterApplying(synced: readonly SyncedFileFacts[], decisions: readonly RemoteDecision[]): SyncedFileFacts[] {
  const byPath = new Map(decisions.map((d) => [decisionPath(d), d]));
  const next: SyncedFileFacts[] = [];
  for (const facts of synced) {
    const decision = byPath.get(facts.base.path);
    const placed = (file: RemoteFile, sha1: string): SyncedFileFacts => {
      const entry = entryOf(facts.base.path.slice(FOLDER.length + 1), 70, 5000);
      return {
        ...facts, base: { ...facts.base, remoteName: file.name, remoteUpdatedAt: file.updatedAt, sha1, size: 70, mtimeMs: 5000 },
        local: { state: 'unchanged', entry, restat: false }, pendingId: null, remoteSha: file.sha1 ?? sha1, canJudge: true,
      };
    };
    if (!decision || decision.type === 'leave') {
      next.push(facts);
      continue;
    }
    if (REMOVES_RECORD.has(decision.type)) continue;
    const file = facts.listed!;
    switch (decision.type) {
      case 'restat':
        next.push({ ...facts, base: { ...facts.base, size: decision.restat.size, mtimeMs: decision.restat.mtimeMs }, local: { state: 'unchanged', entry: decision.restat, restat: false } });
        break;
      case 'restore':
        next.push(placed(file, facts.base.sha1));
        break;
      case 'bring-back':
      case 'replace':
      case 'conflict-synced':
        next.push(placed(file, facts.remoteSha!));
        break;
      case 'adopt-synced':
        next.push({ ...placed(file, decision.sha1), remoteSha: facts.remoteSha });
        break;
      case 'metadata': {
        const follow = decision.local === 'missing' || decision.local === 'unchanged';
        const local = facts.local!.state === 'unchanged' ? { ...facts.local!, restat: false } as LocalState : facts.local!;
        next.push({ ...facts, local, base: { ...facts.base, remoteName: follow ? file.name : facts.base.remoteName, remoteUpdatedAt: file.updatedAt } });
        break;
      }
      default:
        throw new Error(`no model for ${decision.type}`);
    }
  }
  return next;
}

describe('the remote pass decides on random inputs', () => {
  const seeds = Array.from({ length: SEEDS }, (_, i) => FIRST_SEED + i);

  it('decides at most once for each synced file and each new file of the service, and only about them', () => {
    for (const seed of seeds) {
      const { synced, folder, added } = remoteInput(seed);
      const decisions = decideSyncedFiles(synced);
      const paths = decisions.map(decisionPath);
      expect(new Set(paths).size, `seed ${seed}`).toBe(paths.length);
      for (const path of paths) expect(synced.some((f) => f.base.path === path), `seed ${seed}: ${path}`).toBe(true);
      // One decision per new file of the service, in its order.
      const forNew = decideNewFiles(folder, added);
      expect(forNew.length, `seed ${seed}`).toBe(added.length);
      forNew.forEach((decision, i) => {
        if (decision.type === 'download' || decision.type === 'adopt-new' || decision.type === 'conflict-new') expect(decision.file.id, `seed ${seed}`).toBe(added[i]!.file.id);
        else expect(decision.type, `seed ${seed}`).toBe('leave');
      });
    }
  });

  it('never takes a synced file for deleted unless the service lacks it and a read of it said it is gone', () => {
    let deletions = 0;
    for (const seed of seeds) {
      const { synced } = remoteInput(seed);
      for (const decision of decideSyncedFiles(synced)) {
        if (!REMOVES_RECORD.has(decision.type)) continue;
        deletions++;
        const facts = synced.find((f) => f.base.path === decisionPath(decision))!;
        expect(facts.listed, `seed ${seed}`).toBeNull();
        expect(facts.gone, `seed ${seed}`).toBe('gone');
        // Only an unchanged file goes to the trash; a file changed here is kept and offered again.
        if (decision.type === 'trash') expect(facts.local?.state, `seed ${seed}`).toBe('unchanged');
        if (decision.type === 'offer-again') expect(facts.local?.state, `seed ${seed}`).toBe('changed');
      }
    }
    expect(deletions).toBeGreaterThan(20);
  });

  it('leaves a file being sent, or one the listing is too old to judge, untouched', () => {
    for (const seed of seeds) {
      const { synced, folder, added } = remoteInput(seed);
      for (const decision of decideSyncedFiles(synced)) {
        const facts = synced.find((f) => f.base.path === decisionPath(decision))!;
        if (facts.running || !facts.canJudge) expect(decision.type, `seed ${seed}`).toBe('leave');
      }
      for (const decision of decideNewFiles(folder, added)) {
        if (decision.type === 'adopt-new' || decision.type === 'conflict-new') expect(folder.clashes.get(decision.path)?.running, `seed ${seed}`).toBe(false);
      }
    }
  });

  it('never writes over a change made here: the local file is replaced, trashed or brought back only when it is the synced version or gone', () => {
    for (const seed of seeds) {
      const { synced } = remoteInput(seed);
      for (const decision of decideSyncedFiles(synced)) {
        if (!TOUCHES_LOCAL.has(decision.type)) continue;
        const local = synced.find((f) => f.base.path === decisionPath(decision))!.local!;
        if (decision.type === 'restore' || decision.type === 'bring-back') expect(local.state, `seed ${seed}`).toBe('missing');
        else if (decision.type === 'conflict-synced') expect(local.state, `seed ${seed}`).toBe('changed');
        else expect(local.state, `seed ${seed}`).toBe('unchanged');
      }
    }
  });

  it('links a file made on both sides only when both have the same content, and downloads new files only under free names', () => {
    for (const seed of seeds) {
      const { folder, added } = remoteInput(seed);
      const onDisk = new Set(folder.entries.map((e) => nameKey(e.name)));
      const targets = new Set<string>();
      for (const [i, decision] of decideNewFiles(folder, added).entries()) {
        if (decision.type === 'adopt-new') expect(decision.sha1, `seed ${seed}`).toBe(added[i]!.remoteSha);
        if (decision.type === 'conflict-new') expect(folder.clashes.get(decision.path)!.sha1, `seed ${seed}`).not.toBe(added[i]!.remoteSha);
        if (decision.type !== 'download') continue;
        const key = nameKey(decision.path.slice(FOLDER.length + 1));
        expect(decision.path.startsWith(`${FOLDER}/`), `seed ${seed}`).toBe(true);
        expect(onDisk.has(key), `seed ${seed}: ${decision.path} is taken`).toBe(false);
        expect(targets.has(key), `seed ${seed}: ${decision.path} twice`).toBe(false);
        targets.add(key);
      }
    }
  });

  it('decides nothing more on the result of its own decisions (but a rename noted for a file deleted here whose deletion was turned down, which the next pass brings back)', () => {
    let applied = 0;
    for (const seed of seeds) {
      const { synced } = remoteInput(seed);
      const first = decideSyncedFiles(synced);
      applied += first.filter((d) => d.type !== 'leave').length;
      const next = afterApplying(synced, first);
      const nextAgain = afterApplying(next, decideSyncedFiles(next));
      for (const decision of decideSyncedFiles(next)) {
        const before = first.find((d) => decisionPath(d) === decisionPath(decision));
        if (decision.type === 'leave') {
          expect(before?.type, `seed ${seed}: ${decision.path}`).toBe('leave');
          continue;
        }
        if (decision.type === 'restore' && before?.type === 'metadata' && before.local === 'missing') continue;
        // A rename on the service waits while the file is changed here: noted again, which changes nothing.
        expect(decision.type, `seed ${seed}: ${decisionPath(decision)} after ${before?.type}`).toBe('metadata');
        expect(decision.type === 'metadata' && decision.local, `seed ${seed}`).toBe('changed');
      }
      // Applying the second round's decisions leaves the state as the first left it (apart from that bringing back).
      const restored = new Set(decideSyncedFiles(next).filter((d) => d.type === 'restore').map(decisionPath));
      expect(nextAgain.filter((f) => !restored.has(f.base.path)), `seed ${seed}`).toEqual(next.filter((f) => !restored.has(f.base.path)));
    }
    expect(applied).toBeGreaterThan(200);
  });
});

