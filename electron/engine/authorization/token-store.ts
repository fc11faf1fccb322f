import type { EngineWords } from '../../../shared/i18n/engine-words';

/**
 * Where the token is kept. The Electron shell backs it with safeStorage; the Node CLI with a file only its
 * user can read. Implementations never log the token.
 */
export interface TokenStore {
  read(): Promise<string | null>;
  write(token: string): Promise<void>;
  clear(): Promise<void>;
  /** Says where and how it is kept, for `whoami` and the settings screen (never the token itself). */
  describe(): string;
  /** The same as facts (a message of the catalogs and its values), which a front end words in the person's language. */
  keptIn?(): EngineWords;
  /**
   * Calls `changed` when the stored token may have been written or removed by another process (a `login` in another
   * terminal); returns the function that stops watching. Only used while the engine waits for a sign-in. Optional: a
   * store no other process writes has nothing to watch.
   */
  watch?(changed: () => void): () => void;
}
