import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { droppedFileNameRefusalWords, type ContractProblem } from '../../../shared';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf, WordedError } from '../../../shared/i18n/worded-error';
import { warnUnlessMissing } from '../log/engine-log';

/**
 * What hosts share of a dropped file's way in (the window host over HTTP, the Electron shell on app://): the address
 * `PUT /drops/designs/<designId>/<encoded file name>`, its checks, and streaming the body to a staging file.
 */
export const DROP_ADDRESS_PREFIX = '/drops/designs/';
/** The header a drop must carry: a cross-site form or a simple request cannot set it. */
export const DROP_HEADER = 'x-design-sync-drop';
/** The largest file one drop takes (2 GiB): past it the host answers 413 and keeps nothing. */
export const MAX_DROP_BYTES = 2 * 1024 ** 3;

export type DropAddress = { ok: true; designId: number; fileName: string } | { ok: false; message: string; words?: EngineWords };

/**
 * The design and file name a drop's address names, or why it names none: in English (`message`), and as facts
 * (`words`) when the name is refused, which the window says in the person's language.
 */
export function parseDropAddress(pathname: string): DropAddress {
  if (!pathname.startsWith(DROP_ADDRESS_PREFIX)) return { ok: false, message: 'Not a drop address.' };
  const parts = pathname.slice(DROP_ADDRESS_PREFIX.length).split('/');
  if (parts.length !== 2) return { ok: false, message: 'A drop address is /drops/designs/<design id>/<file name>, the name encoded.' };
  const [id, encoded] = parts as [string, string];
  if (!/^[1-9][0-9]{0,15}$/.test(id)) return { ok: false, message: `"${id}" is not a design id.` };
  let fileName: string;
  try {
    fileName = decodeURIComponent(encoded);
  } catch {
    return { ok: false, message: 'The file name is not properly encoded.' };
  }
  const refusal = droppedFileNameRefusalWords(fileName);
  return refusal ? { ok: false, message: englishOf(refusal), words: refusal } : { ok: true, designId: Number(id), fileName };
}

/** A drop over the limit: its words (the limit as a size) for the window, its message their English. */
export class DropTooLargeError extends WordedError {
  constructor(readonly limit: number) {
    super({ id: 'engine.refusal.drop.tooLarge', values: { limit: sizeWords(limit) } });
    this.name = 'DropTooLargeError';
  }
}

/** A size as facts (1 KB = 1,024 bytes, whole units: "2 GB", "64 KB"), worded with its number in the person's locale. */
export function sizeWords(bytes: number): EngineWords {
  const units = ['format.bytesRounded.kb', 'format.bytesRounded.mb', 'format.bytesRounded.gb', 'format.bytesRounded.tb'] as const;
  if (bytes < 1024) return { id: 'format.bytesRounded.b', values: { value: bytes } };
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return { id: units[unit]!, values: { value: Math.round(value * 10) / 10 } };
}

/** Why a drop's body could not be kept (staging failed, not for its size): a full disk, or it did not arrive whole. */
export function dropNotKeptWords(error: unknown, limit: number): EngineWords {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOSPC'
    ? { id: 'engine.refusal.drop.diskFull', values: { limit: sizeWords(limit) } }
    : { id: 'engine.refusal.drop.notReceived' };
}

/**
 * Streams a body to a new file in `dir` (flushed; never held in memory), stopping at `limit` bytes. The file is
 * removed on any failure (too large, the sender gone, a full disk). Resolves with its path and size.
 */
export async function stageDrop(dir: string, body: Readable, limit = MAX_DROP_BYTES): Promise<{ path: string; size: number }> {
  const path = join(dir, `drop-${randomBytes(12).toString('hex')}`);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) done(new DropTooLargeError(limit));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(path, { flags: 'wx', mode: 0o600, flush: true }));
  } catch (error) {
    await unlink(path).catch(warnUnlessMissing('drops', `the unfinished drop ${path} could not be removed`));
    throw error;
  }
  return { path, size };
}

const STATUS_OF: Partial<Record<ContractProblem['kind'], number>> = {
  validation: 400, 'bad-request': 400, 'not-signed-in': 401, 'token-rejected': 401, forbidden: 403, 'not-found': 404,
  conflict: 409, 'sync-folder': 409, 'not-cached': 503, offline: 503,
};

/** The HTTP status a host answers a drop the engine refused with (both hosts answer alike). */
export function dropProblemStatus(kind: ContractProblem['kind']): number {
  return STATUS_OF[kind] ?? 500;
}
