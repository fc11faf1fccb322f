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
}
