import type { OwnUser, ServiceProblem } from '../../../shared';
import type { TransportOptions } from '../api/transport';
import { signIn, verifyToken, type SignInOptions, type SignInResult } from './sign-in';
import { memoryTokenServiceRecord, sameService, type TokenServiceRecord } from './service-binding';
import { readSignedInUser, type SignedInUser } from './signed-in-user';
import type { TokenStore } from './token-store';
import { engineLog } from '../log/engine-log';

export const SIGN_IN_AGAIN = 'The service no longer accepts this sign-in (access may have been revoked): sign in again.';

export type SessionState =
  | { status: 'signed-out' }
  /** `user` is null when the token came from storage and the service has not confirmed it yet (e.g. started offline). */
  | { status: 'signed-in'; user: SignedInUser | null }
  /** The service refused the token: writes stop (queued work stays queued) until a new sign-in. */
  | { status: 'needs-sign-in'; reason: string; user: SignedInUser | null };

export type SessionSignInResult = { kind: 'signed-in'; user: SignedInUser } | Exclude<SignInResult, { kind: 'signed-in' }>;

export type SessionListener = (state: SessionState) => void;

/**
 * The engine's sign-in state: the current token and user in memory, backed by a TokenStore. It plugs into
 * ServiceClient (transportOptions): a 'token-rejected' problem moves it to needs-sign-in, where canWrite()
 * is false and the rejected token is no longer sent (public reads go on anonymously). The stored token is
 * kept until a new sign-in replaces it. The token never leaves through state, events or errors.
 *
 * A token belongs to the service that issued it (`tokenService`, remembered by the TokenServiceRecord beside the
 * token): a client made with transportOptions() for any other address never gets it.
 */
export class Session {
  private current: SessionState = { status: 'signed-out' };
  private token: string | null = null;
  private service: string | null = null;
  private readonly listeners = new Set<SessionListener>();

  constructor(readonly store: TokenStore, private readonly record: TokenServiceRecord = memoryTokenServiceRecord()) {}

  get state(): SessionState {
    return this.current;
  }

  /** Told of every change of state; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Picks up the stored token (at start, and when another process may have signed in). A read error (e.g. an unsafe
   * token file) is thrown as is. With `onlyFor`, a stored token issued for another service is not taken up: the
   * session stays as it was (the token is for whoever uses that service).
   */
  /**
   * `storedAgain`: the store was written since (a sign-in stored by another process): its token is taken up even when
   * it is the one the service refused, since the service may hand back the same token to a person who signs in again
   * (spec §5: "or had already allowed").
   */
  async load(options: { onlyFor?: string; storedAgain?: boolean } = {}): Promise<SessionState> {
    const token = await this.store.read();
    if (token === null) {
      this.token = null;
      this.service = null;
      this.setState({ status: 'signed-out' });
      return this.current;
    }
    const service = this.record.read();
    if (options.onlyFor !== undefined && service !== null && !sameService(service, options.onlyFor)) return this.current;
    if (token !== this.token || this.current.status === 'signed-out' || (options.storedAgain === true && this.current.status === 'needs-sign-in')) {
      this.token = token;
      this.service = service;
      this.setState({ status: 'signed-in', user: null });
    } else {
      this.service = service;
    }
    return this.current;
  }

  /**
   * The service the token in use was issued for: null when signed out, or when not known (a token stored before
   * design-sync remembered it, on a profile that never chose a service).
   */
  get tokenService(): string | null {
    return this.token === null ? null : this.service;
  }

  /**
   * Stops using the stored token in this process without removing it (it belongs to another service than the one in
   * use): signed out here, the token left where it is.
   */
  setAside(): void {
    this.token = null;
    this.service = null;
    this.setState({ status: 'signed-out' });
  }

  /** The token to send, or null: none while signed out or after the service refused it. */
  currentToken(): string | null {
    return this.current.status === 'signed-in' ? this.token : null;
  }

  /** The token to send to `baseUrl`: only the service it was issued for ever gets it. */
  tokenFor(baseUrl: string): string | null {
    const token = this.currentToken();
    if (token === null) return null;
    return this.service === null || sameService(this.service, baseUrl) ? token : null;
  }

  /** Whether changes may be sent to the service now. The upload queue pauses while this is false. */
  canWrite(): boolean {
    return this.current.status === 'signed-in';
  }

  /** Options for a ServiceClient that uses this session's token and reports rejected tokens to it. */
  transportOptions(options: Omit<TransportOptions, 'token'>): TransportOptions {
    const { onProblem } = options;
    return {
      ...options,
      token: () => this.tokenFor(options.baseUrl),
      onProblem: (problem, sent) => {
        this.noticeProblem(problem, sent.token);
        onProblem?.(problem, sent);
      },
    };
  }

  /**
   * A problem of a request: a rejected token means sign in again — unless the request carried another token
   * than the one in use now (an answer to a request sent before a new sign-in), or none at all (a request to another
   * address, which never gets the token: its refusal says nothing of this sign-in).
   */
  noticeProblem(problem: ServiceProblem, sentToken: string | null = this.token): void {
    if (problem.kind !== 'token-rejected' || this.current.status !== 'signed-in') return;
    if (sentToken === null || sentToken !== this.token) return;
    this.setState({ status: 'needs-sign-in', reason: SIGN_IN_AGAIN, user: this.current.user });
  }

  /** Records who the service says the token belongs to (e.g. after GET /v1/user/whoami). */
  confirmUser(user: unknown): void {
    const read = readSignedInUser(user);
    if (read && this.current.status === 'signed-in') this.setState({ status: 'signed-in', user: read });
  }

  /**
   * A browser sign-in (see signIn); a success is saved and resumes the session. The result holds no token,
   * so it may be passed on as it is (to the renderer, to a log).
   */
  async signIn(options: Omit<SignInOptions, 'store'>): Promise<SessionSignInResult> {
    const { store, record } = this;
    // The service is remembered before the token is written: a stored token is never without its service.
    const bound: TokenStore = {
      read: () => store.read(),
      write: async (token) => {
        record.write(options.baseUrl);
        await store.write(token);
      },
      clear: () => store.clear(),
      describe: () => store.describe(),
    };
    const result = await signIn({ ...options, store: bound });
    if (result.kind !== 'signed-in') return result;
    this.adopt(result.token, result.user, options.baseUrl);
    return { kind: 'signed-in', user: readSignedInUser(result.user)! };
  }

  /** A token given by hand (`login --with-token`) for the service at `baseUrl`: checked with it, then saved. */
  async signInWithToken(baseUrl: string, token: string, options: { signal?: AbortSignal; userAgent?: string } = {}): Promise<OwnUser> {
    const user = await verifyToken(baseUrl, token, options);
    this.record.write(baseUrl);
    await this.store.write(token);
    this.adopt(token, user, baseUrl);
    return user;
  }

  /** Forgets the token here and in the store, then the service it was for. */
  async signOut(): Promise<void> {
    await this.store.clear();
    this.record.write(null);
    this.token = null;
    this.service = null;
    this.setState({ status: 'signed-out' });
  }

  private adopt(token: string, user: OwnUser, service: string): void {
    this.token = token;
    this.service = service;
    this.setState({ status: 'signed-in', user: readSignedInUser(user) ?? null });
  }

  private setState(state: SessionState): void {
    this.current = state;
    for (const listener of [...this.listeners]) {
      try {
        listener(state);
      } catch (error) {
        // A listener's failure is its own; the others are still told.
        engineLog.warn('session', 'a listener of the sign-in state failed', error);
      }
    }
  }
}
