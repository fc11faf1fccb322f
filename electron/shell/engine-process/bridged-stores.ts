import type { TokenStore } from '../../engine/authorization/token-store';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { WordedError } from '../../../shared/i18n/worded-error';
import { engineSettings, type EngineSettings, type SettingsStore } from '../../engine/settings/settings-store';
import type { BridgePort, EngineToHost, HostToEngine, SecretName, TokenOperation } from '../engine-bridge/messages';

/** How long the host may take to answer a token operation (safeStorage may ask the keyring, which may ask the person). */
const TOKEN_ANSWER_MS = 120_000;

/**
 * The engine's token store in the utility process: every read, write and clear is done by the host, which alone can
 * use safeStorage. The token crosses only this channel between two of our own processes, never a window.
 */
export function bridgedTokenStore(port: BridgePort<HostToEngine, EngineToHost>, description: string, secret?: SecretName, keptIn?: EngineWords): TokenStore {
  let nextId = 1;
  const pending = new Map<number, { resolve: (token: string | null) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  port.onMessage((message) => {
    // Each store hears only the answers about its own secret (the token, or the proxy's password).
    if (message.type !== 'token-answer' || message.secret !== secret) return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.ok) waiting.resolve(message.token);
    else waiting.reject(message.words ? new WordedError(message.words) : new Error(message.message));
  });
  const ask = (operation: TokenOperation, token?: string) =>
    new Promise<string | null>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('The app did not answer about the sign-in token in time: try again.'));
      }, TOKEN_ANSWER_MS);
      pending.set(id, { resolve, reject, timer });
      port.post({ type: 'token', id, operation, ...(token !== undefined ? { token } : {}), ...(secret ? { secret } : {}) });
    });
  return {
    read: () => ask('read'),
    async write(token) {
      if (token.length === 0) throw new Error('Refusing to store an empty token.');
      await ask('write', token);
    },
    async clear() {
      await ask('clear');
    },
    describe: () => description,
    ...(keptIn ? { keptIn: () => keptIn } : {}),
  };
}

/**
 * The engine's settings in the utility process: a copy of what electron-store holds in the host, read at once (the
 * engine reads settings synchronously) and every change sent back for the host to write.
 */
export function mirroredSettingsStore(port: BridgePort<HostToEngine, EngineToHost>, initial: EngineSettings): SettingsStore {
  let current = engineSettings.parse(initial);
  return {
    read: () => current,
    update(changes) {
      current = engineSettings.parse({ ...current, ...changes });
      port.post({ type: 'settings', settings: current });
      return current;
    },
  };
}
