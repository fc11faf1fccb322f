import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TokenStore } from '../../engine/authorization/token-store';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';

/** The part of Electron's safeStorage this store uses (its asynchronous API: the synchronous one is going away). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux only: which secret store holds the key ('basic_text': none, a password built into Chromium). */
  getSelectedStorageBackend?(): string;
}

/** A stored sign-in that cannot be used; the message says what to do, never holds the token; `words` are its facts. */
export class StoredTokenError extends Error {
  constructor(readonly words: EngineWords) {
    super(englishOf(words));
    this.name = 'StoredTokenError';
  }
}

/** Where the token is kept with no system keyring: plain about it (its English). */
export const BASIC_TEXT_WARNING = englishOf({ id: 'account.tokenKeptIn.builtInPassword' });

/** Where the token is kept, as facts for the settings view (worded there): plain about a weak backend. */
export function safeStorageKeptIn(platform: NodeJS.Platform, backend: string | undefined): EngineWords {
  if (platform === 'darwin') return { id: 'account.tokenKeptIn.macKeychain' };
  if (platform === 'win32') return { id: 'account.tokenKeptIn.windowsAccount' };
  if (backend === 'basic_text') return { id: 'account.tokenKeptIn.builtInPassword' };
  if (backend && backend !== 'unknown') return { id: 'account.tokenKeptIn.keyring', values: { keyring: backend.replace('gnome_libsecret', 'GNOME Keyring / libsecret') } };
  return { id: 'account.tokenKeptIn.system' };
}

/** Where the token is kept, in English (the log, `design-sync status --diagnostics`). */
export function describeSafeStorage(platform: NodeJS.Platform, backend: string | undefined): string {
  return englishOf(safeStorageKeptIn(platform, backend));
}

/**
 * The Electron app's token store: the token encrypted with safeStorage (Keychain, DPAPI, libsecret/KWallet) in one
 * file of the profile, mode 0600, written to a temporary file and renamed into place. Never logged. A key that was
 * rotated is honoured (the token is encrypted again); a token that cannot be decrypted is a named error, and the
 * person signs in again.
 */
export class SafeStorageTokenStore implements TokenStore {
  constructor(
    readonly path: string,
    private readonly safeStorage: SafeStorageLike,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  async read(): Promise<string | null> {
    let encrypted: Buffer;
    try {
      encrypted = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoredTokenError({ id: 'account.storedSignIn.unreadable', values: { path: this.path, code: (error as NodeJS.ErrnoException).code ?? 'error' } });
    }
    if (encrypted.length === 0) return null;
    await this.requireEncryption();
    let decrypted: { result: string; shouldReEncrypt: boolean };
    try {
      decrypted = await this.safeStorage.decryptStringAsync(encrypted);
    } catch {
      throw new StoredTokenError({ id: 'account.storedSignIn.undecryptable' });
    }
    if (decrypted.shouldReEncrypt) await this.write(decrypted.result);
    return decrypted.result;
  }

  async write(token: string): Promise<void> {
    if (token.length === 0) throw new Error('Refusing to store an empty token.');
    await this.requireEncryption();
    const encrypted = await this.safeStorage.encryptStringAsync(token);
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, encrypted, { mode: 0o600, flag: 'wx' });
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw new StoredTokenError({ id: 'account.storedSignIn.notStored', values: { path: this.path, code: (error as NodeJS.ErrnoException).code ?? 'error' } });
    }
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }

  describe(): string {
    return englishOf(this.keptIn());
  }

  keptIn(): EngineWords {
    return safeStorageKeptIn(this.platform, this.safeStorage.getSelectedStorageBackend?.());
  }

  private async requireEncryption(): Promise<void> {
    if (!(await this.safeStorage.isAsyncEncryptionAvailable())) {
      throw new StoredTokenError({ id: 'account.storedSignIn.noEncryption' });
    }
  }
}
