import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASIC_TEXT_WARNING, SafeStorageTokenStore, type SafeStorageLike } from '../../electron/shell/secrets/safe-storage-token-store';
import { tempDir } from '../engine/cache/cache-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/** A stand-in for Electron's safeStorage: a reversible scrambling, so that the file never holds the token in clear. */
function fakeSafeStorage(options: { available?: boolean; backend?: string; reEncrypt?: boolean; failDecrypt?: boolean } = {}): SafeStorageLike & { encrypted: number } {
  const fake = {
    encrypted: 0,
    isAsyncEncryptionAvailable: async () => options.available ?? true,
    encryptStringAsync: async (text: string) => {
      fake.encrypted += 1;
      return Buffer.from(Buffer.from(text).map((byte) => byte ^ 0x5a));
    },
    decryptStringAsync: async (data: Buffer) => {
      if (options.failDecrypt) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return { result: Buffer.from(data.map((byte) => byte ^ 0x5a)).toString(), shouldReEncrypt: options.reEncrypt ?? false };
    },
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
  return fake;
}

const dirs: string[] = [];
const pathIn = () => {
  const dir = tempDir('safe-token');
  dirs.push(dir);
  return join(dir, 'token.safe');
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the safeStorage token store', () => {
  it('keeps the token encrypted in a 0600 file and reads it back', async () => {
    const path = pathIn();
    const store = new SafeStorageTokenStore(path, fakeSafeStorage(), 'linux');
    expect(await store.read()).toBeNull();
    await store.write('tok-123456');
    expect(readFileSync(path).toString()).not.toContain('tok-123456');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await store.read()).toBe('tok-123456');
    await store.clear();
    expect(await store.read()).toBeNull();
  });

  it('says plainly when Linux has no keyring (basic_text), and names the keyring otherwise', () => {
    expect(new SafeStorageTokenStore(pathIn(), fakeSafeStorage({ backend: 'basic_text' }), 'linux').describe()).toBe(BASIC_TEXT_WARNING);
    expect(BASIC_TEXT_WARNING).toMatch(/any program running as you could read it/);
    expect(new SafeStorageTokenStore(pathIn(), fakeSafeStorage({ backend: 'kwallet6' }), 'linux').describe()).toMatch(/keyring \(kwallet6\)/);
    expect(new SafeStorageTokenStore(pathIn(), fakeSafeStorage(), 'darwin').describe()).toMatch(/Keychain/);
  });

  it('encrypts again when the key was rotated', async () => {
    const path = pathIn();
    await new SafeStorageTokenStore(path, fakeSafeStorage()).write('tok-rotated');
    const rotating = fakeSafeStorage({ reEncrypt: true });
    expect(await new SafeStorageTokenStore(path, rotating).read()).toBe('tok-rotated');
    expect(rotating.encrypted).toBe(1);
  });

  it('refuses to store a token it cannot encrypt, and names the remedy', async () => {
    const store = new SafeStorageTokenStore(pathIn(), fakeSafeStorage({ available: false }), 'linux');
    await expect(store.write('tok')).rejects.toThrow(/no way to encrypt.*keyring/);
    await expect(store.write('')).rejects.toThrow(/empty/);
  });

  it('turns a token it cannot decrypt into a named error without the token in it', async () => {
    const path = pathIn();
    writeFileSync(path, Buffer.from('garbage'));
    const error = await new SafeStorageTokenStore(path, fakeSafeStorage({ failDecrypt: true })).read().catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('StoredTokenError');
    expect((error as Error).message).toMatch(/sign in again/);
  });
});
