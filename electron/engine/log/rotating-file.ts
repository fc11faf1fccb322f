import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** 1 MiB a file, three files (the live one and two older): the log never takes more than 3 MiB of the profile. */
export const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;
export const DEFAULT_LOG_FILES = 3;

export interface RotatingFileOptions {
  /** A file is rotated before a write would take it past this size. */
  maxBytes?: number;
  /** How many files are kept, the live one included: `engine.log`, `engine.log.1` … `engine.log.<files-1>`. */
  files?: number;
}

/**
 * A text file that rotates by size: `path` is written, and when a write would take it past `maxBytes` it becomes
 * `path.1` (`path.1` becoming `path.2`…, the oldest dropped). Every write is synchronous (appendFileSync): the engine
 * logs rarely, and a line written just before the process ends (a CLI command that fails) must be on disk. The size
 * is read from the file at each write, so two processes sharing a profile (the app and a CLI command) both keep it
 * bounded.
 *
 * Hand-written rather than a dependency: the rotating-file packages (rotating-file-stream, file-stream-rotator,
 * pino-roll) write through asynchronous streams that must be flushed before a CLI command exits, for what is ~60 lines.
 */
export class RotatingFile {
  readonly maxBytes: number;
  readonly files: number;
  private dirReady = false;

  constructor(readonly path: string, options: RotatingFileOptions = {}) {
    this.maxBytes = Math.max(1024, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
    this.files = Math.max(1, options.files ?? DEFAULT_LOG_FILES);
  }

  /** Every file of the log, newest first (those that exist or may: `path`, `path.1`, …). */
  paths(): string[] {
    return Array.from({ length: this.files }, (_, index) => (index === 0 ? this.path : `${this.path}.${index}`));
  }

  /** Appends `text` (a line or a few, ending with a newline); throws what the file system throws. */
  append(text: string): void {
    if (!this.dirReady) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.dirReady = true;
    }
    let bytes = Buffer.from(text, 'utf8');
    // A single entry larger than a file is cut, so that no file ever passes the bound.
    if (bytes.length > this.maxBytes) bytes = Buffer.concat([bytes.subarray(0, this.maxBytes - 2), Buffer.from('…\n')]).subarray(0, this.maxBytes);
    if (this.sizeNow() + bytes.length > this.maxBytes) this.rotate();
    appendFileSync(this.path, bytes, { mode: 0o600 });
  }

  private sizeNow(): number {
    try {
      return statSync(this.path).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  }

  private rotate(): void {
    const paths = this.paths();
    rmSync(paths[paths.length - 1]!, { force: true });
    for (let index = paths.length - 2; index >= 0; index--) {
      try {
        renameSync(paths[index]!, paths[index + 1]!);
      } catch (error) {
        // A file not there yet (a young log) is nothing to move; anything else is the caller's to know.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
}
