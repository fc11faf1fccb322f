/**
 * Why a sign-in did not end with a saved token, when that is not an answer of the browser (a deny is an
 * outcome, not an error). Messages are for people and never hold the token.
 */
export type SignInErrorKind =
  /** No answer from the browser in time. */
  | 'timed-out'
  /** The caller gave up (AbortSignal), or the receiver was closed. */
  | 'cancelled'
  /** The browser handed over a token that GET /v1/user/whoami refuses. */
  | 'token-rejected';

const MESSAGES: Record<SignInErrorKind, string> = {
  'timed-out': 'Sign-in timed out: no answer came from the browser.',
  cancelled: 'Sign-in was cancelled.',
  'token-rejected': 'The service does not accept this token.',
};

export class SignInError extends Error {
  constructor(readonly kind: SignInErrorKind, message: string = MESSAGES[kind]) {
    super(message);
    this.name = 'SignInError';
  }
}

export function isSignInError(error: unknown, kind?: SignInErrorKind): error is SignInError {
  return error instanceof SignInError && (kind === undefined || error.kind === kind);
}
