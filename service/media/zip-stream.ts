import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';

export interface ZipEntry {
  /** Name inside the archive. */
  name: string;
  /** File on disk. */
  path: string;
  mtime?: Date;
}

/** Names unique inside one archive: a second "a.stl" becomes "a (2).stl". */
export function uniqueEntryNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let candidate = name || 'file';
    const dot = candidate.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [candidate.slice(0, dot), candidate.slice(dot)] : [candidate, ''];
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/**
 * A zip archive of files on disk, produced as a stream: entries are stored (not compressed) and read chunk by
 * chunk, waiting for the consumer, so archives of files of any size need little memory.
 * (The zip format without ZIP64 limits entries to 4 GiB.)
 */
export function zipFilesStream(entries: ZipEntry[]): Readable {
  const output = new PassThrough();
  let waiting = false;
  const zip = new Zip((error, data, final) => {
    if (error) {
      output.destroy(error);
      return;
    }
    if (!output.write(data)) waiting = true;
    if (final) output.end();
  });
  const drained = () => new Promise<void>((resolve) => {
    const done = () => {
      output.off('drain', done);
      output.off('close', done);
      resolve();
    };
    output.on('drain', done);
    output.on('close', done);
  });
  void (async () => {
    for (const entry of entries) {
      const file = new ZipPassThrough(entry.name);
      if (entry.mtime) file.mtime = entry.mtime;
      zip.add(file);
      for await (const chunk of createReadStream(entry.path)) {
        if (output.destroyed) return;
        file.push(chunk as Uint8Array);
        if (waiting) {
          waiting = false;
          await drained();
        }
      }
      file.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
