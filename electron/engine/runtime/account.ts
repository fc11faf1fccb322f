import type { EngineWords } from '../../../shared/i18n/engine-words';
import type { Session } from '../authorization/session';
import { engineLog } from '../log/engine-log';
import type { BrowserSignIn } from './browser-sign-in';
import type { ServiceConnection } from './service-connection';

/**
 * The person's account on the chosen service: the session (its token kept by the token store), the browser sign-in,
 * and why the stored token could not be used when the engine opened. The one way front ends sign in and out.
 */
export class Account {
  constructor(
    readonly session: Session,
    readonly signIn: BrowserSignIn,
    private readonly connection: ServiceConnection,
    /** Why the stored token could not be read when the engine opened (signed out then), or null. */
    readonly tokenProblem: string | null,
    /** Its facts, for a front end to word in the person's language (null: said only in English). */
    readonly tokenProblemWords: EngineWords | null = null,
  ) {}

  /**
   * Who the stored token belongs to, asked of the service when it is not known yet (a token read from storage says
   * nothing of its user). Quietly nothing when the service cannot be asked: the session says signed in, user unknown.
   */
  async confirmUser(timeoutMs = 3_000): Promise<void> {
    const state = this.session.state;
    if (state.status !== 'signed-in' || state.user !== null || !this.connection.serviceUrl() || !this.connection.connectivity.state.online) return;
    try {
      this.session.confirmUser(await this.connection.client().whoami(AbortSignal.timeout(timeoutMs)));
    } catch (error) {
      // Offline or refused: a refusal already moved the session to needs-sign-in.
      engineLog.info('session', 'who the stored token belongs to could not be asked', error);
    }
  }

  /** Opens the service's sign-in page (in the person's browser when the front end gave a way); its address. */
  async startSignIn(): Promise<string> {
    this.connection.requireServiceUrl();
    return this.signIn.start();
  }

  /** Any sign-in under way is cancelled, then the token is removed from its store. */
  async signOut(): Promise<void> {
    this.signIn.cancel();
    await this.session.signOut();
  }
}
