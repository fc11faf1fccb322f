/**
 * The world model of the sync fuzz test: what the test itself did, so that the invariants can tell the engine's
 * doing from the test's. Every write (local or on the service) has content of its own (the seed and a counter are
 * in it), so a SHA-1 names one write: a content the test never removed must still exist somewhere.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { seededRandom } from '../../../../service/seed/seeded-random';
import type { FileKind } from './steps';

export const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
const PLACE = (where: string, name: string, hash: string) => `${where}\u0000${name}\u0000${hash}`;

/** The bytes of one write: an 8 to 40 px PNG for an image, text plus seeded bytes for anything else. */
export async function contentBytes(seed: number, content: number, kind: FileKind, size: number): Promise<Buffer> {
  const random = seededRandom(seed * 7919 + content);
  if (kind === 'image') {
    const side = 8 + Math.floor(random() * 32);
    const pixels = Buffer.alloc(side * side * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(random() * 256);
    return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
  }
  const head = Buffer.from(`fuzz seed ${seed} content ${content}\n`);
  const body = Buffer.alloc(Math.max(0, size - head.length));
  for (let i = 0; i < body.length; i++) body[i] = 32 + Math.floor(random() * 95);
  return Buffer.concat([head, body]);
}

export interface LocalFile { path: string; folder: string; name: string; sha1: string; size: number }

/**
 * The design folders as they are on disk: every file of every top-level folder, hashed (a hash is reused while
 * the file's size, mtime and inode stay the same). Dotfiles (the engine's temporary files, its trash) are left out.
 */
export class LocalIndex {
  private readonly hashes = new Map<string, { key: string; sha1: string }>();

  constructor(readonly root: string) {}

  folders(): string[] {
    return safeList(this.root).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  }

  topFiles(): string[] {
    return safeList(this.root).filter((e) => !e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  }

  files(folder: string): LocalFile[] {
    const found: LocalFile[] = [];
    for (const entry of safeList(join(this.root, folder))) {
      if (!entry.isFile() || entry.name.startsWith('.')) continue;
      const path = `${folder}/${entry.name}`;
      try {
        const stat = statSync(join(this.root, path));
        const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
        let known = this.hashes.get(path);
        if (known?.key !== key) this.hashes.set(path, (known = { key, sha1: sha1(readFileSync(join(this.root, path))) }));
        found.push({ path, folder, name: entry.name, sha1: known.sha1, size: stat.size });
      } catch {
        // gone meanwhile (the engine moved it): not there
      }
    }
    return found.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  all(): LocalFile[] {
    return this.folders().flatMap((folder) => this.files(folder));
  }
}

function safeList(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** What the test did: contents it wrote and removed, files it deleted on the service, paths it took away, folders it made. */
export class World {
  /** Every content the test wrote, by SHA-1: where it first put it. */
  readonly written = new Map<string, { where: string; name: string; step: number; origin: 'local' | 'service' }>();
  /** Contents the test itself removed (deleted, overwrote, deleted or replaced on the service) with no copy left. */
  readonly removed = new Map<string, string>();
  /**
   * Contents of the records the test deleted on the service (design id, name): the only files the engine may move
   * to the trash. Every version a record had counts (a local copy may still be the one before a replace).
   */
  readonly deletedOnService = new Map<string, { designId: number; name: string; step: number }>();
  /** The contents each record of the service ("<design>:<kind>:<id>") was seen with by the test. */
  private readonly versions = new Map<string, Set<string>>();
  /** Local paths the test deleted, renamed or moved away: the only ones whose deletion the engine may propose. */
  readonly pathsTakenAway = new Map<string, number>();
  /** Top-level folders the test made (the only ones that may be proposed as new designs) and the names it confirmed. */
  readonly newFolders = new Set<string>();
  readonly confirmedDesigns = new Map<string, string>();
  /** How many times the test put (name, content) into one design ("d:<id>") or folder ("f:<name>"). */
  readonly placements = new Map<string, number>();
  readonly log: string[] = [];

  constructor(readonly seed: number) {}

  note(step: number, text: string): void {
    this.log.push(`#${step} ${text}`);
  }

  wrote(hash: string, where: string, name: string, step: number, origin: 'local' | 'service'): void {
    if (!this.written.has(hash)) this.written.set(hash, { where, name, step, origin });
    this.removed.delete(hash);
    this.placed(where, name, hash);
  }

  placed(where: string, name: string, hash: string): void {
    const key = PLACE(where, name, hash);
    this.placements.set(key, (this.placements.get(key) ?? 0) + 1);
  }

  timesPlaced(wheres: string[], name: string, hash: string): number {
    return wheres.reduce((n, where) => n + (this.placements.get(PLACE(where, name, hash)) ?? 0), 0);
  }

  /** The test removed `hash` from one place; it counts as removed only when `stillElsewhere` is false. */
  removedContent(hash: string, why: string, stillElsewhere: boolean): void {
    if (!stillElsewhere && this.written.has(hash)) this.removed.set(hash, why);
  }

  sawVersion(record: string, hash: string): void {
    this.versions.set(record, (this.versions.get(record) ?? new Set()).add(hash));
  }

  deletedRecord(record: string, hash: string, where: { designId: number; name: string; step: number }): void {
    this.sawVersion(record, hash);
    for (const version of this.versions.get(record)!) this.deletedOnService.set(version, where);
  }

  tookAway(path: string, step: number): void {
    this.pathsTakenAway.set(path, step);
  }

  /** Contents the test wrote and did not remove: each must be in the folder or on the service at the end. */
  live(): string[] {
    return [...this.written.keys()].filter((hash) => !this.removed.has(hash));
  }
}
