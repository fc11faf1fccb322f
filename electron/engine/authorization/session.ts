import type { OwnUser, ServiceProblem } from '../../../shared';
import type { TransportOptions } from '../api/transport';
import { signIn, verifyToken, type SignInOptions, type SignInResult } from './sign-in';
import { readSignedInUser, type SignedInUser } from './signed-in-user';
import type { TokenStore } from './token-store';

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
 */
export class Session {
  private current: SessionState = { status: 'signed-out' };
  private token: string | null = null;
  private readonly listeners = new Set<SessionListener>();

  constructor(readonly store: TokenStore) {}

  get state(): SessionState {
    return this.current;
  }

  /** Told of every change of state; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Picks up the stored token (at start). A read error (e.g. an unsafe token file) is thrown as is. */
  async load(): Promise<SessionState> {
    const token = await this.store.read();
    if (token === null) {
      this.token = null;
      this.setState({ status: 'signed-out' });
    } else if (token !== this.token || this.current.status === 'signed-out') {
      this.token = token;
      this.setState({ status: 'signed-in', user: null });
    }
    return this.current;
  }

  /** The token to send, or null: none while signed out or after the service refused it. */
  currentToken(): string | null {
    return this.current.status === 'signed-in' ? this.token : null;
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
      token: () => this.currentToken(),
      onProblem: (problem, sent) => {
        this.noticeProblem(problem, sent.token);
        onProblem?.(problem, sent);
      },
    };
  }

  /**
   * A problem of a request: a rejected token means sign in again — unless the request carried another token
   * than the one in use now (an answer to a request sent before a new sign-in).
   */
  noticeProblem(problem: ServiceProblem, sentToken: string | null = this.token): void {
    if (problem.kind !== 'token-rejected' || this.current.status !== 'signed-in') return;
    if (sentToken !== null && sentToken !== this.token) return;
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
    const result = await signIn({ ...options, store: this.store });
    if (result.kind !== 'signed-in') return result;
    this.adopt(result.token, result.user);
    return { kind: 'signed-in', user: readSignedInUser(result.user)! };
  }

  /** A token given by hand (`login --with-token`): checked with the service, then saved. */
  async signInWithToken(baseUrl: string, token: string, options: { signal?: AbortSignal; userAgent?: string } = {}): Promise<OwnUser> {
    const user = await verifyToken(baseUrl, token, options);
    await this.store.write(token);
    this.adopt(token, user);
    return user;
  }

  /** Forgets the token here and in the store. */
  async signOut(): Promise<void> {
    await this.store.clear();
    this.token = null;
    this.setState({ status: 'signed-out' });
  }

  private adopt(token: string, user: OwnUser): void {
    this.token = token;
    this.setState({ status: 'signed-in', user: readSignedInUser(user) ?? null });
  }

  private setState(state: SessionState): void {
    this.current = state;
    for (const listener of [...this.listeners]) {
      try {
        listener(state);
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  }
}
