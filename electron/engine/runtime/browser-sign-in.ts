import { EventEmitter } from 'node:events';
import type { Session } from '../authorization/session';
import { isSignInError } from '../authorization/sign-in-error';
import { createTranslator } from '../../../shared/i18n/create-intl';
import { DEFAULT_LOCALE, type Locale } from '../../../shared/i18n/locales';

export type SignInOutcome = 'signed-in' | 'denied' | 'timed-out' | 'cancelled' | 'failed';

export interface BrowserSignInOptions {
  session: Session;
  /** The service's API address ({base_url}: the token is checked there and only ever sent there); read when a sign-in starts. */
  serviceUrl: () => string;
  /**
   * The service's web address ({auth_url}: where the browser signs in); the API address when not given. It never gets
   * the token: the browser hands it to the loopback receiver.
   */
  webUrl?: () => string;
  /** Opens the person's browser (the shell: shell.openExternal; the CLI and window host: the `open` package). */
  openBrowser?: (url: string) => Promise<void>;
  userAgent: string;
  timeoutMs?: number;
  /** The language of the pages the browser is shown at the end (the language setting, or the system's); English when not given. */
  locale?: () => Locale;
}

/**
 * One browser sign-in at a time, run in the background: start() answers with the authorization address as soon as
 * it is known (so a window can show it, and a person without a browser can copy it); the end arrives as 'ended'.
 */
export class BrowserSignIn extends EventEmitter<{ ended: [{ outcome: SignInOutcome; message: string }]; change: [] }> {
  private current: { url: Promise<string>; abort: AbortController; address: string | null } | null = null;

  constructor(private readonly options: BrowserSignInOptions) {
    super();
  }

  get inProgress(): boolean {
    return this.current !== null;
  }

  get address(): string | null {
    return this.current?.address ?? null;
  }

  start(): Promise<string> {
    if (this.current) return this.current.url;
    const abort = new AbortController();
    let resolveUrl!: (url: string) => void;
    let rejectUrl!: (error: unknown) => void;
    const url = new Promise<string>((resolve, reject) => {
      resolveUrl = resolve;
      rejectUrl = reject;
    });
    const attempt = { url, abort, address: null as string | null };
    this.current = attempt;
    const baseUrl = this.options.serviceUrl();
    const authUrl = this.options.webUrl?.() ?? baseUrl;
    const locale = this.options.locale?.() ?? DEFAULT_LOCALE;
    void createTranslator(locale)
      .then((words) => this.options.session.signIn({
        authUrl,
        baseUrl,
        userAgent: this.options.userAgent,
        signal: abort.signal,
        ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
        onAuthorizationUrl: (address) => {
          attempt.address = address;
          resolveUrl(address);
          this.emit('change');
        },
        ...(this.options.openBrowser ? { openBrowser: this.options.openBrowser } : {}),
        words,
      }))
      .then(
        (result) => {
          if (result.kind === 'signed-in') return this.end('signed-in', `Signed in as ${result.user.screen_name}.`);
          if (result.kind === 'denied') return this.end('denied', 'Sign-in was cancelled in the browser: nothing changed.');
          return this.end('timed-out', 'Sign-in timed out: no answer came from the browser. Try again.');
        },
        (error: unknown) => {
          rejectUrl(error);
          if (isSignInError(error, 'cancelled') || abort.signal.aborted) return this.end('cancelled', 'Sign-in was cancelled.');
          if (isSignInError(error, 'token-rejected')) return this.end('failed', 'The service did not accept the sign-in the browser handed over. Try again.');
          this.end('failed', `Sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    return url;
  }

  cancel(): void {
    this.current?.abort.abort();
  }

  private end(outcome: SignInOutcome, message: string): void {
    this.current = null;
    this.emit('ended', { outcome, message });
    this.emit('change');
  }
}
