import { randomBytes } from 'node:crypto';
import { constants, statSync, watch as watchFolder, type FSWatcher } from 'node:fs';
import { mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import type { TokenStore } from './token-store';
import { engineLog, warnUnlessMissing } from '../log/engine-log';

/** A token file that must not be used as it is; the message says what to do and never holds the token. */
export class TokenFileError extends Error {
  /** The message's facts, for a front end to word in the person's language (null for one said only in English). */
  readonly words: EngineWords | null;

  constructor(message: string | EngineWords) {
    super(typeof message === 'string' ? message : englishOf(message));
    this.name = 'TokenFileError';
    this.words = typeof message === 'string' ? null : message;
  }
}

const POSIX = process.platform !== 'win32';

function modeText(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/**
 * The Node CLI's token store: one file (the profile's tokenFile) that only its user can read: mode 0600 in
 * a 0700 directory, written to a temporary file and renamed into place, so that a crash never leaves half
 * a token. A token file that others can read is refused, not silently re-secured: the token may already
 * have been read, and the user should know (and may want to revoke it).
 */
export class FileTokenStore implements TokenStore {
  constructor(readonly path: string) {}

  async read(): Promise<string | null> {
    let handle;
    try {
      // O_NOFOLLOW: a symbolic link put in place of the token file is not followed.
      handle = await open(this.path, constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW : 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      if (code === 'ELOOP') throw new TokenFileError({ id: 'account.tokenFile.symbolicLink', values: { path: this.path } });
      throw new TokenFileError({ id: 'account.tokenFile.unreadable', values: { path: this.path, code: code ?? 'error' } });
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new TokenFileError({ id: 'account.tokenFile.notAFile', values: { path: this.path } });
      if (POSIX) {
        const uid = process.getuid?.();
        if (uid !== undefined && stats.uid !== uid) {
          throw new TokenFileError({ id: 'account.tokenFile.otherOwner', values: { path: this.path, uid: String(stats.uid) } });
        }
        if ((stats.mode & 0o077) !== 0) {
          throw new TokenFileError({ id: 'account.tokenFile.othersCanRead', values: { path: this.path, mode: modeText(stats.mode) } });
        }
      }
      const token = (await handle.readFile('utf8')).trim();
      return token === '' ? null : token;
    } finally {
      await handle.close();
    }
  }

  async write(token: string): Promise<void> {
    if (token.length === 0 || /[\s\u0000-\u001f\u007f]/.test(token)) throw new TokenFileError('Refusing to store a token that is empty or holds spaces or control characters.');
    const directory = dirname(this.path);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const temporary = join(directory, `.${basename(this.path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temporary, 'wx', 0o600);
      try {
        if (POSIX) await handle.chmod(0o600); // whatever the umask
        await handle.writeFile(`${token}\n`, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await unlink(temporary).catch(warnUnlessMissing('session', `could not remove the temporary token file ${temporary}`));
      throw new TokenFileError(`The token could not be saved in ${this.path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
    await syncDirectory(directory);
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }

  describe(): string {
    return englishOf(this.keptIn());
  }

  keptIn(): EngineWords {
    return { id: POSIX ? 'account.tokenKeptIn.privateFile' : 'account.tokenKeptIn.profileFile', values: { path: this.path } };
  }

  /**
   * Watches the token file's folder (a new token is renamed into place, so the file itself is replaced) for changes of
   * the file's name, and polls the file's identity every `pollMs` as well, for file systems whose changes fs.watch does
   * not report (network shares, some containers). Both stop when the returned function is called.
   */
  watch(changed: () => void, pollMs = TOKEN_POLL_MS): () => void {
    const name = basename(this.path);
    let last = identity(this.path);
    const check = () => {
      const now = identity(this.path);
      if (now === last) return;
      last = now;
      changed();
    };
    let watcher: FSWatcher | null = null;
    try {
      watcher = watchFolder(dirname(this.path), { persistent: false }, (_event, file) => {
        if (file === null || file === name) check();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      // No watching here (the folder is gone, or the platform cannot): the poll still notices.
    }
    const poll = setInterval(check, pollMs);
    poll.unref();
    return () => {
      clearInterval(poll);
      watcher?.close();
      watcher = null;
    };
  }
}

/** How often the token file is looked at while the engine waits for a sign-in (besides fs.watch). */
export const TOKEN_POLL_MS = 2_000;

/** What changes when the file is written or replaced: inode, size, modification time ('none' when there is none). */
function identity(path: string): string {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  } catch {
    return 'none';
  }
}

/** Makes the rename durable where the platform allows it (not on Windows). */
async function syncDirectory(directory: string): Promise<void> {
  if (!POSIX) return;
  try {
    const handle = await open(directory, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Best effort: the token is written either way.
    engineLog.warn('session', `could not make the token file's folder ${directory} durable`, error);
  }
}
