import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccountView, Outcome } from '../../shared';
import { accountReasonWords, tokenKeptInWords } from '../../shared/account/account-reason-words';
import { createTranslator } from '../../shared/i18n/create-intl';
import { EngineBridge } from '../../electron/shell/engine-bridge/engine-bridge';
import type { BridgePort } from '../../electron/shell/engine-bridge/messages';
import { serveEngine } from '../../electron/shell/engine-process/serve-engine';
import { SafeStorageTokenStore, type SafeStorageLike } from '../../electron/shell/secrets/safe-storage-token-store';
import { tempDir } from '../engine/cache/cache-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/** One end of a worker_threads channel as a bridge port: structured clone, as between Electron's processes. */
function portOf<In, Out>(port: MessagePort): BridgePort<In, Out> {
  return {
    post: (message) => port.postMessage(message),
    onMessage(listener) {
      const onMessage = (message: In) => listener(message);
      port.on('message', onMessage);
      return () => port.off('message', onMessage);
    },
  };
}

/** Electron's safeStorage as it is when the system keyring changed: what it encrypted before cannot be decrypted. */
const changedKeyring: SafeStorageLike = {
  isAsyncEncryptionAvailable: async () => true,
  encryptStringAsync: async (text) => Buffer.from(text),
  decryptStringAsync: async () => {
    throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
  },
  getSelectedStorageBackend: () => 'kwallet5',
};

let channel: MessageChannel;
let bridge: EngineBridge;
let profile: string;

beforeAll(async () => {
  profile = tempDir('stored-sign-in-words');
  mkdirSync(join(profile, 'host'), { recursive: true });
  const tokenFile = join(profile, 'host', 'token.safe');
  writeFileSync(tokenFile, Buffer.from('encrypted with a key that is gone'));
  const tokens = new SafeStorageTokenStore(tokenFile, changedKeyring, 'linux');
  channel = new MessageChannel();
  void serveEngine(portOf(channel.port2));
  bridge = new EngineBridge(portOf(channel.port1), { tokens, saveSettings: () => {}, openExternal: () => {}, log: () => {} });
  // As main.ts opens it: where the token is kept, in English and as facts.
  await bridge.open({ profileDir: join(profile, 'engine'), userAgent: 'design-sync-test', settings: {}, serviceUrl: 'http://127.0.0.1:9', tokenDescription: tokens.describe(), tokenKeptIn: tokens.keptIn() });
});

afterAll(async () => {
  await bridge?.close(1_000, 10_000);
  channel?.port1.close();
  channel?.port2.close();
  rmSync(profile, { recursive: true, force: true });
});

describe('the desktop app\'s stored sign-in, in the person\'s language', () => {
  it('says why a sign-in the keyring can no longer decrypt is not used, and where it is kept, in Dutch and German', async () => {
    const outcome = await bridge.request('account.get', {}) as Outcome<AccountView>;
    if (!outcome.ok) throw new Error(outcome.problem.message);
    const account = outcome.value;
    expect(account).toMatchObject({ status: 'signed-out', reasonCode: 'stored-sign-in-unusable' });
    // The English for the log and older front ends, as it was.
    expect(account.reason).toBe('The stored sign-in could not be decrypted (the system keyring changed or is locked): sign in again.');
    const [nl, de] = await Promise.all([createTranslator('nl'), createTranslator('de')]);
    expect(accountReasonWords(account, nl)).toBe('De bewaarde inlog kon niet worden ontsleuteld (de sleutelbos van het systeem is gewijzigd of vergrendeld): log opnieuw in.');
    expect(accountReasonWords(account, de)).toBe('Die gespeicherte Anmeldung konnte nicht entschlüsselt werden (der Schlüsselbund des Systems wurde geändert oder ist gesperrt): Bitte melden Sie sich erneut an.');
    expect(account.tokenKeptIn).toBe('encrypted with a key kept in your system keyring (kwallet5)');
    expect(tokenKeptInWords(account, de)).toBe('mit einem Schlüssel aus dem Schlüsselbund Ihres Systems verschlüsselt (kwallet5)');
  });
});
