import { EventEmitter } from 'node:events';
import { lstat, mkdir, open, readdir, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ReadableDB } from '../cache/cache-database';
import type { DesignCache } from '../cache/design-cache';
import { getCachedDesign } from '../cache/design-reads';
import { prepared } from '../cache/prepared';
import { generatedCovers, generatedThumbnailRow, isCurrent, writeGeneratedThumbnail, type GeneratedThumbnailRow } from '../cache/generated-thumbnails';
import { engineLog, warnUnlessMissing } from '../log/engine-log';
import { EngineError } from '../runtime/engine-error';

/** The largest picture kept (a 400×300 PNG of a model is 20–120 KB). */
export const MAX_THUMBNAIL_BYTES = 2 * 1024 ** 2;
/**
 * The largest model a picture is made from: a bigger one is not downloaded only for a card (its page's 3D preview
 * still shows it).
 */
export const MAX_THUMBNAIL_MODEL_BYTES = 64 * 1024 ** 2;
/** The largest width or height a picture may have. */
export const MAX_THUMBNAIL_SIDE = 2048;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** These designs' pictures changed (made, or found not makeable); `own` names those of them that are the person's. */
export interface ThumbnailsChange {
  ids: number[];
  own: number[];
}

export interface StagedThumbnail {
  designId: number;
  /** The model document it was rendered from: it must still be the design's first model. */
  documentId: number;
  /** Where the host staged the bytes: a file directly inside the profile's incoming folder. */
  stagedPath: string;
}

/** The profile's folder of generated pictures (`<profile>/thumbnails/<design id>.png`). */
export const thumbnailsDirOf = (profileRoot: string) => join(profileRoot, 'thumbnails');

/** What the generated pictures work with, given by whoever composes the engine: never the engine itself. */
export interface GeneratedThumbnailsDeps {
  /** The cache: read, and its `generated_thumbnails` written (this service is their one writer). */
  cache: Pick<DesignCache, 'reader' | 'db'>;
  /** The profile's folder of generated pictures (thumbnailsDirOf). */
  dir: string;
  /** The profile's folder the hosts stage what they are given in: a staged picture is taken only from there. */
  incomingDir: string;
}

/**
 * The current picture of a design (made from its first model as it is now, the design still without an image), or
 * null. Read from the cache only; `dir` is the profile's folder of pictures.
 */
export function currentGeneratedThumbnail(reader: ReadableDB, dir: string, designId: number): { path: string; row: GeneratedThumbnailRow } | null {
  const summary = getCachedDesign(reader, designId)?.summary;
  if (!summary) return null;
  const row = generatedCovers(reader, [summary]).get(designId)?.generated;
  return row && row.problem === null ? { path: join(dir, `${designId}.png`), row } : null;
}

const refused = (message: string, field: string) => new EngineError({ kind: 'validation', message, fieldErrors: { [field]: [message] } });

/** Why these bytes are not a PNG picture a card can show, or null when they are one. */
export function pngRefusal(head: Buffer, size: number): string | null {
  if (size > MAX_THUMBNAIL_BYTES) return `The picture is larger than ${MAX_THUMBNAIL_BYTES / 1024 ** 2} MiB, the most a generated thumbnail may be.`;
  if (head.length < 24 || !head.subarray(0, 8).equals(PNG_SIGNATURE) || head.toString('latin1', 12, 16) !== 'IHDR') return 'The picture is not a PNG image.';
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_THUMBNAIL_SIDE || height > MAX_THUMBNAIL_SIDE) {
    return `The picture is ${width}×${height} pixels: a generated thumbnail is at most ${MAX_THUMBNAIL_SIDE}×${MAX_THUMBNAIL_SIDE}.`;
  }
  return null;
}

/**
 * Pictures the window renders from a design's first model when the design has no image: the one writer of them
 * (`generated_thumbnails`, and their bytes in the profile's `thumbnails/` folder). A picture is kept only for a
 * design the cache knows, that has no image, and only from its first model as it is now; a newer version of that
 * model makes it stale (the cards then ask for another). Nothing here uploads: a picture becomes an image of the
 * design only when the person confirms "Use as cover". Emits 'changed' with the designs whose picture changed.
 */
export class GeneratedThumbnails extends EventEmitter<{ changed: [ThumbnailsChange] }> {
  readonly dir: string;

  constructor(private readonly deps: GeneratedThumbnailsDeps) {
    super();
    this.dir = deps.dir;
  }

  /**
   * Removes the pictures of designs the cache no longer has (a design removed takes its row with it, not its file).
   * Resolves with how many went.
   */
  async sweep(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const known = new Set((prepared(this.deps.cache.reader, 'SELECT design_id FROM generated_thumbnails WHERE problem IS NULL').pluck().all() as number[]).map((id) => `${id}.png`));
    const gone = names.filter((name) => /^\d+\.png$/.test(name) && !known.has(name));
    for (const name of gone) await unlink(join(this.dir, name)).catch(warnUnlessMissing('thumbnails', `the picture ${name} of a design no longer cached could not be removed`));
    return gone.length;
  }

  /** Where a design's picture's bytes are kept. */
  pathOf(designId: number): string {
    return join(this.dir, `${designId}.png`);
  }

  /**
   * Keeps a picture the window rendered (staged by the host), replacing the design's older one. Refused with a clear
   * problem, nothing kept: a design the cache does not know, one with an image, a model that is not its first one, or
   * bytes that are not a PNG within bounds. The staged file is gone afterwards either way.
   */
  async store(staged: StagedThumbnail): Promise<GeneratedThumbnailRow> {
    let path: string | null = null;
    try {
      path = await this.checkedStagedPath(staged.stagedPath);
      const { model, own } = this.modelFor(staged.designId, staged.documentId);
      const size = (await lstat(path)).size;
      const head = Buffer.alloc(24);
      const handle = await open(path, 'r');
      try {
        await handle.read(head, 0, 24, 0);
      } finally {
        await handle.close();
      }
      const refusal = pngRefusal(head, size);
      if (refusal) throw refused(refusal, 'picture');
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await rename(path, this.pathOf(staged.designId));
      path = null;
      const row: GeneratedThumbnailRow = {
        designId: staged.designId, documentId: model.documentId, documentVersion: model.version, fileName: model.fileName, byteSize: size,
        madeAt: Date.now(), problem: null,
      };
      writeGeneratedThumbnail(this.deps.cache.db, row);
      this.emit('changed', { ids: [staged.designId], own: own ? [staged.designId] : [] });
      return row;
    } finally {
      if (path !== null) await unlink(path).catch(warnUnlessMissing('thumbnails', `the refused picture ${path} could not be removed`));
    }
  }

  /**
   * The window could not make a picture from this model (it cannot be read, or drawn): said once in the engine log
   * and remembered for this version, so no window tries it again until the model changes. A late word about a
   * design that has an image now, or about a model that is no longer its first, is not remembered (false).
   */
  failed(designId: number, documentId: number, reason: string): boolean {
    let found;
    try {
      found = this.modelFor(designId, documentId);
    } catch (error) {
      engineLog.info('thumbnails', `a picture of design ${designId} could not be made (${reason}); not remembered`, error);
      return false;
    }
    const { model, own } = found;
    const known = generatedThumbnailRow(this.deps.cache.reader, designId);
    if (known?.problem && isCurrent(known, model)) return true;
    engineLog.warn('thumbnails', `no picture could be made of design ${designId} from ${model.fileName}: ${reason}`);
    writeGeneratedThumbnail(this.deps.cache.db, {
      designId, documentId: model.documentId, documentVersion: model.version, fileName: model.fileName, byteSize: 0, madeAt: Date.now(), problem: reason,
    });
    this.emit('changed', { ids: [designId], own: own ? [designId] : [] });
    return true;
  }

  /** The current picture of a design (made from its first model as it is now), or null. */
  current(designId: number): { path: string; row: GeneratedThumbnailRow } | null {
    return currentGeneratedThumbnail(this.deps.cache.reader, this.dir, designId);
  }

  private modelFor(designId: number, documentId: number) {
    const summary = getCachedDesign(this.deps.cache.reader, designId)?.summary;
    if (!summary) throw new EngineError({ kind: 'not-found', message: `There is no design ${designId} in the cache.` });
    if (summary.coverImageId !== null) throw new EngineError({ kind: 'conflict', message: `"${summary.name}" has an image: its own cover is shown, never a generated one.` });
    const model = generatedCovers(this.deps.cache.reader, [summary]).get(designId)?.model;
    if (!model) throw new EngineError({ kind: 'conflict', message: `"${summary.name}" has no model file a picture can be made from.` });
    if (model.documentId !== documentId) throw refused(`The picture must be made from "${model.fileName}", the design's first model (document ${model.documentId}).`, 'documentId');
    return { model, own: summary.own };
  }

  /** A staged path is only ever a file the host wrote directly inside the incoming folder, never anything a caller names. */
  private async checkedStagedPath(stagedPath: string): Promise<string> {
    const incoming = await realpath(this.deps.incomingDir).catch(() => null);
    const parent = await realpath(dirname(stagedPath)).catch(() => null);
    const name = basename(stagedPath);
    if (!incoming || parent !== incoming || name === '' || name.startsWith('.')) throw refused('A picture must be staged in the profile\'s incoming folder.', 'stagedPath');
    const path = join(incoming, name);
    if (!(await lstat(path).then((info) => info.isFile(), () => false))) throw refused('The staged picture is not there.', 'stagedPath');
    return path;
  }
}
