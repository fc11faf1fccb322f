import type { BaseFile } from '../../../electron/engine/sync-state/base-files';
import type { LocalEntry } from '../../../electron/engine/sync/local-files';

/** What the randomized tests of the sync planners share: their seeds, a PRNG's helpers, and small makers of records. */
export const FIRST_SEED = 46_000;
export const SEEDS = 400;

export type Random = () => number;
export const tools = (random: Random) => ({
  chance: (p: number) => random() < p,
  oneOf: <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!,
  int: (min: number, max: number) => min + Math.floor(random() * (max - min + 1)),
});

export const FOLDER = 'gear';
export const DESIGN = 7;
export const SHAS = ['a1', 'b2', 'c3', 'd4'];
export const TIMES = ['2026-01-01', '2026-02-02', '2026-03-03'];
export const NAMES = ['Gear.stl', 'gear.stl', 'Base.3mf', 'front.png', 'Front.PNG', 'notes.txt', 'Gear (2).stl'];

export const entryOf = (name: string, size: number, mtimeMs: number, inode = `1:${name}`, type: LocalEntry['type'] = 'file'): LocalEntry => ({ name, type, size, mtimeMs, inode });
export const kindOf = (name: string): 'image' | 'document' => (/\.png$/i.test(name) ? 'image' : 'document');

export function baseOf(path: string, remoteId: number, sha1: string, remoteUpdatedAt: string, size: number): BaseFile {
  const name = path.slice(path.indexOf('/') + 1);
  return {
    path, folder: FOLDER, designId: DESIGN, kind: kindOf(name), remoteId, remoteName: name, remoteUpdatedAt, size, mtimeMs: 1000, inode: `1:${name}`, sha1, syncedAt: 10,
  };
}

