import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import type { TokenStore } from './token-store';

/** Keeps the token in memory only: for tests, and for a session that must not outlive the process. */
export class MemoryTokenStore implements TokenStore {
  private token: string | null;

  constructor(initial: string | null = null) {
    this.token = initial;
  }

  async read(): Promise<string | null> {
    return this.token;
  }

  async write(token: string): Promise<void> {
    if (token.length === 0) throw new Error('Refusing to store an empty token.');
    this.token = token;
  }

  async clear(): Promise<void> {
    this.token = null;
  }

  describe(): string {
    return englishOf(this.keptIn());
  }

  keptIn(): EngineWords {
    return { id: 'account.tokenKeptIn.memory' };
  }
}
