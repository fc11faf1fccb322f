/**
 * The world model of the sync fuzz test: what the test itself did, so that the invariants can tell the engine's
 * doing from the test's. Every write (local or on the service) has content of its own (the seed and a counter are
 * in it), so a SHA-1 names one write: a content the test never removed must still exist somewhere, and one it wrote
 * where it is never sent (and never put where it is sent since) must never be on the service.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { seededRandom } from '../../../../service/seed/seeded-random';
import { compileIgnoreFile, holdReason, IGNORE_FILE, parseIgnoreText, type CompiledIgnoreFile, type HoldReason } from '../../../../electron/engine/sync/ignore/never-sent-rules';
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

/** The engine's own names in a design folder (its temporary downloads, the folder's ignore file): never the person's files. */
const engineOwn = (name: string) => name.startsWith('.design-sync-') || name === IGNORE_FILE;

/**
 * The design folders as they are on disk: every file of every top-level folder, hashed (a hash is reused while
 * the file's size, mtime and inode stay the same). Dotfiles are left out, unless `hidden` asks for those the test
 * wrote (the engine's own, its temporary downloads and the ignore files, are never listed).
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

  files(folder: string, hidden = false): LocalFile[] {
    const found: LocalFile[] = [];
    for (const entry of safeList(join(this.root, folder))) {
      if (!entry.isFile() || (entry.name.startsWith('.') && (!hidden || engineOwn(entry.name)))) continue;
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

  all(hidden = false): LocalFile[] {
    return this.folders().flatMap((folder) => this.files(folder, hidden));
  }
}

function safeList(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The ignore files as the test wrote them (read back from disk after each change): the sync folder's and design
 * folders' own. What they hold back is asked of the engine's own rule function (never-sent-rules.ts, with the
 * built-in list): the test checks what sync does with names it holds back, not the matching, which has tests of its own.
 */
export class IgnoreRules {
  private root: string[] = [];
  private readonly folders = new Map<string, string[]>();
  private readonly compiled = new Map<string, CompiledIgnoreFile>();
  /** Each change, in words: "#7 .designsyncignore: *.scad, draft-*". */
  readonly history: string[] = [];
  /**
   * The rules in force over time (Date.now()): each from the moment the test began to change a file (`changing`) to
   * the moment the next change was done, so that around a change both the old rules and the new ones count.
   */
  private readonly timeline: { from: number; until: number; compiled: Map<string, CompiledIgnoreFile> }[] = [{ from: -Infinity, until: Infinity, compiled: new Map() }];
  private changingSince: number | null = null;

  lines(folder: string | null): string[] {
    return folder === null ? this.root : (this.folders.get(folder) ?? []);
  }

  /** Every ignore file with patterns: the sync folder's (null) and design folders'. */
  files(): [string | null, string[]][] {
    return [...(this.root.length > 0 ? [[null, this.root] as [null, string[]]] : []), ...this.folders.entries()];
  }

  /** The test is about to change an ignore file (the old rules count until `set` says it is done). */
  changing(): void {
    this.changingSince ??= Date.now();
  }

  set(folder: string | null, lines: string[], step: number): void {
    const file = folder === null ? IGNORE_FILE : `${folder}/${IGNORE_FILE}`;
    if (folder === null) this.root = lines;
    else if (lines.length > 0) this.folders.set(folder, lines);
    else this.folders.delete(folder);
    if (lines.length > 0) this.compiled.set(file, compileIgnoreFile(file, parseIgnoreText(lines.join('\n')).lines));
    else this.compiled.delete(file);
    this.history.push(`#${step} ${file}: ${lines.join(', ') || 'no patterns'}`);
    const now = Date.now();
    this.timeline.at(-1)!.until = now;
    this.timeline.push({ from: this.changingSince ?? now, until: Infinity, compiled: new Map(this.compiled) });
    this.changingSince = null;
  }

  /** Why the file `name` of the top-level folder `folder` is never sent now (its folder held back, or its name), or null. */
  reason(folder: string, name: string): HoldReason | null {
    return reasonUnder(this.compiled, folder, name);
  }

  /** Why folder/name would be held back if the ignore file of `scope` (null: the sync folder's) held `lines`, or null. */
  reasonWith(scope: string | null, lines: string[], folder: string, name: string): HoldReason | null {
    const file = scope === null ? IGNORE_FILE : `${scope}/${IGNORE_FILE}`;
    const compiled = new Map(this.compiled).set(file, compileIgnoreFile(file, parseIgnoreText(lines.join('\n')).lines));
    return reasonUnder(compiled, folder, name);
  }

  /** Whether folder/name was held back at every moment from `from` to `to` (Date.now() times), by whatever rules were in force. */
  heldThroughout(folder: string, name: string, from: number, to: number): boolean {
    return this.timeline.filter((rules) => rules.from <= to && rules.until >= from).every((rules) => reasonUnder(rules.compiled, folder, name) !== null);
  }

  /** Whether a whole top-level folder is held back now (a linked one is no longer kept in step). */
  folderHeld(folder: string): HoldReason | null {
    return holdReason(`${folder}/`, { root: this.compiled.get(IGNORE_FILE) ?? null, folder: null });
  }

  /** Whether the built-in list holds the name back, whatever the ignore files say. */
  static builtIn(name: string): HoldReason | null {
    return holdReason(`folder/${name}`, { root: null, folder: null });
  }

  static words(reason: HoldReason): string {
    return reason.source === 'built-in' ? `built-in: ${reason.label}, ${reason.pattern}` : `${reason.file}: ${reason.pattern}`;
  }
}

function reasonUnder(compiled: Map<string, CompiledIgnoreFile>, folder: string, name: string): HoldReason | null {
  const root = compiled.get(IGNORE_FILE) ?? null;
  return holdReason(`${folder}/`, { root, folder: null }) ?? holdReason(`${folder}/${name}`, { root, folder: compiled.get(`${folder}/${IGNORE_FILE}`) ?? null });
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
  readonly startedAt = Date.now();
  /** The ignore files as the test wrote them. */
  readonly ignore = new IgnoreRules();
  /**
   * Contents the test wrote at a path never sent at that moment and never at a path that is sent since (the ignore
   * files changed, the file renamed or moved): none may ever be on the service.
   */
  readonly neverSendable = new Map<string, { path: string; step: number; why: string }>();
  /**
   * Files of the service ("<design>:<kind>:<id>") seen held back here (a synced file that became ignored, a file of the
   * service under a name never sent): none may leave the service but by the test (deleted there, or its deletion
   * confirmed by the test after it took the file away here).
   */
  readonly heldOnService = new Map<string, { path: string; step: number; why: string }>();
  /** Files the test removed from the service, by record: why. */
  readonly goneByTest = new Map<string, string>();
  /** Ignored contents or names of the built-in list the test saw on the service while it ran, by record. */
  readonly sightings = new Map<string, string>();

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
    this.removedFromService(record, `#${where.step} deleted ${where.name} on the service`);
    this.sawVersion(record, hash);
    for (const version of this.versions.get(record)!) this.deletedOnService.set(version, where);
  }

  removedFromService(record: string, why: string): void {
    this.goneByTest.set(record, why);
  }

  /** The test wrote `hash` to folder/name: a content never to be sent while that path is held back. */
  wroteLocally(hash: string, folder: string, name: string, step: number): void {
    const reason = this.ignore.reason(folder, name);
    if (reason) this.neverSendable.set(hash, { path: `${folder}/${name}`, step, why: IgnoreRules.words(reason) });
    else this.neverSendable.delete(hash);
  }

  /** After the ignore files changed or a file was renamed or moved: a content now at a path that is sent may be sent. */
  recheckNeverSendable(local: LocalIndex, step: number): void {
    if (this.neverSendable.size === 0) return;
    const files = local.all(true);
    for (const hash of [...this.neverSendable.keys()]) {
      const sent = files.find((file) => file.sha1 === hash && !this.ignore.reason(file.folder, file.name));
      if (sent) this.neverSendable.delete(hash);
      if (sent) this.note(step, `${sent.path} (${hash.slice(0, 7)}) is no longer held back: it may be sent now`);
    }
  }

  /** A file seen on the service (folder: its design's linked folder): held back here, or a sighting of what never may be there. */
  sawOnService(step: number, designId: number, folder: string | null, file: { kind: string; id: number; name: string; sha1: string }): void {
    const record = `${designId}:${file.kind}:${file.id}`;
    const what = `design #${designId} (${folder ?? 'no folder'}) holds ${file.name} (${file.kind} ${file.id}, ${file.sha1.slice(0, 10)})`;
    const never = this.neverSendable.get(file.sha1);
    if (never) this.sightings.set(`${record}:${file.sha1}`, `seen at #${step}: ${what}, a content written at #${never.step} to ${never.path}, held back then (${never.why}) and ever since`);
    const builtIn = IgnoreRules.builtIn(file.name);
    if (builtIn) this.sightings.set(`${record}:${file.name}`, `seen at #${step}: ${what}, a name of the built-in list (${IgnoreRules.words(builtIn)})`);
    const reason = folder ? this.ignore.reason(folder, file.name) : null;
    if (reason && !this.heldOnService.has(record)) this.heldOnService.set(record, { path: `${folder}/${file.name}`, step, why: IgnoreRules.words(reason) });
  }

  tookAway(path: string, step: number): void {
    this.pathsTakenAway.set(path, step);
  }

  /** Contents the test wrote and did not remove: each must be in the folder or on the service at the end. */
  live(): string[] {
    return [...this.written.keys()].filter((hash) => !this.removed.has(hash));
  }
}
