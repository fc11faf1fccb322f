import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore, TokenFileError } from '../../../electron/engine/authorization/file-token-store';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { fileTokenStore } from '../../../electron/cli/file-token-store-factory';
import { ensureProfile } from '../../../electron/engine/profile/profile';

const TOKEN = 'tok_file_store_secret_ABCDEF';
const posix = process.platform !== 'win32';

describe('FileTokenStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'design-sync-token-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the token mode 0600 in a 0700 directory, reads it back and clears it', async () => {
    const store = new FileTokenStore(join(dir, 'profile', 'token'));
    expect(await store.read()).toBeNull();
    await store.write(TOKEN);
    expect(await store.read()).toBe(TOKEN);
    if (posix) {
      expect(statSync(store.path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'profile')).mode & 0o777).toBe(0o700);
    }
    expect(store.describe()).toContain(store.path);
    expect(store.describe()).not.toContain(TOKEN);
    await store.clear();
    expect(await store.read()).toBeNull();
    await store.clear(); // idempotent
  });

  it('is the CLI profile\'s store', async () => {
    const profile = ensureProfile(join(dir, 'p'));
    const store = fileTokenStore(profile);
    await store.write(TOKEN);
    expect(readFileSync(profile.tokenFile, 'utf8').trim()).toBe(TOKEN);
  });

  it('replaces the token atomically: temporary file and rename, nothing left behind', async () => {
    const store = new FileTokenStore(join(dir, 'token'));
    await store.write('first-token');
    const before = statSync(store.path).ino;
    await store.write(TOKEN);
    expect(readFileSync(store.path, 'utf8')).toBe(`${TOKEN}\n`);
    expect(statSync(store.path).ino).not.toBe(before); // a new file renamed into place, not rewritten in place
    expect(readdirSync(dir)).toEqual(['token']);

    // Many writers at once: the file always holds one whole token.
    const tokens = Array.from({ length: 20 }, (_, i) => `token-${i}-${'x'.repeat(200)}`);
    await Promise.all(tokens.map((token) => store.write(token)));
    expect(tokens).toContain(await store.read());
    expect(readdirSync(dir)).toEqual(['token']);
  });

  it('re-secures nothing silently: a token file others can read is refused with how to fix it', async () => {
    if (!posix) return;
    const store = new FileTokenStore(join(dir, 'token'));
    await store.write(TOKEN);
    chmodSync(store.path, 0o644);
    const error = await store.read().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TokenFileError);
    expect((error as Error).message).toContain(`chmod 600 '${store.path}'`);
    expect((error as Error).message).toContain('0644');
    expect((error as Error).message).not.toContain(TOKEN);
    chmodSync(store.path, 0o600);
    expect(await store.read()).toBe(TOKEN);
    // A new write replaces the unsafe file with a private one.
    chmodSync(store.path, 0o660);
    await store.write(TOKEN);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  it('does not follow a symbolic link put in place of the token file', async () => {
    if (!posix) return;
    const target = join(dir, 'elsewhere');
    writeFileSync(target, TOKEN, { mode: 0o600 });
    symlinkSync(target, join(dir, 'token'));
    await expect(new FileTokenStore(join(dir, 'token')).read()).rejects.toThrow(/symbolic link/);
  });

  it('refuses to store an empty or multi-line token', async () => {
    const store = new FileTokenStore(join(dir, 'token'));
    await expect(store.write('')).rejects.toThrow(TokenFileError);
    await expect(store.write('a\nb')).rejects.toThrow(TokenFileError);
    expect(await store.read()).toBeNull();
  });
});

describe('MemoryTokenStore', () => {
  it('keeps the token in memory only', async () => {
    const store = new MemoryTokenStore();
    expect(await store.read()).toBeNull();
    await store.write(TOKEN);
    expect(await store.read()).toBe(TOKEN);
    expect(store.describe()).not.toContain(TOKEN);
    await store.clear();
    expect(await store.read()).toBeNull();
  });
});
