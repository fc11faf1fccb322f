import type { OwnUser } from '../../../shared';
import { ServiceClient } from '../api/service-client';
import { isServiceError, ServiceError } from '../api/service-error';
import type { Words } from '../../../shared/i18n/create-intl';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, startLoopbackReceiver } from './loopback-receiver';
import { SignInError } from './sign-in-error';
import { readSignedInUser } from './signed-in-user';
import type { TokenStore } from './token-store';

/** The one application name registered with the service for this client (spec §5.1). */
export const APPLICATION_SLUG = 'design-sync';

export interface SignInOptions {
  /** {auth_url}: where the browser goes (the local service serves it at its own address). */
  authUrl: string;
  /** {base_url}: where the token is checked with GET /v1/user/whoami. */
  baseUrl: string;
  /** Where a token that the service accepts is saved. */
  store: TokenStore;
  /** Opens the user's browser (the CLI: the `open` package; the shell: shell.openExternal). A failure is not fatal. */
  openBrowser?: (url: string) => Promise<void> | void;
  /** Told the authorization address before the browser is opened, so that it can be shown to the user. */
  onAuthorizationUrl?: (url: string) => void;
  /** Told when the browser could not be opened (the address shown still works). */
  onBrowserError?: (error: unknown) => void;
  timeoutMs?: number;
  signal?: AbortSignal;
  userAgent?: string;
  /** The words of the pages the browser is shown at the end, in the caller's language (English when not given). */
  words?: Words;
}

export type SignInResult =
  /** `token` is already saved in the store; keep it out of logs. */
  | { kind: 'signed-in'; token: string; user: OwnUser }
  | { kind: 'denied' }
  | { kind: 'timed-out' };

/** {auth_url}/integrations/design-sync/authorized_integrations/new?redirect_url=…&deny_url=… */
export function authorizationUrl(authUrl: string, redirectUrl: string, denyUrl: string): string {
  const url = new URL(`integrations/${APPLICATION_SLUG}/authorized_integrations/new`, authUrl.endsWith('/') ? authUrl : `${authUrl}/`);
  url.search = new URLSearchParams({ redirect_url: redirectUrl, deny_url: denyUrl }).toString();
  return url.toString();
}

/**
 * Asks the service who the token belongs to. A token it refuses is SignInError 'token-rejected'; other
 * problems (offline…) arrive as ServiceError, whose message never holds the token.
 */
export async function verifyToken(baseUrl: string, token: string, options: { signal?: AbortSignal; userAgent?: string } = {}): Promise<OwnUser> {
  const client = new ServiceClient({ baseUrl, token: () => token, userAgent: options.userAgent, retry: { retries: 2 } });
  let user: OwnUser;
  try {
    user = await client.whoami(options.signal);
  } catch (error) {
    if (isServiceError(error, 'token-rejected')) throw new SignInError('token-rejected');
    throw error;
  }
  if (!readSignedInUser(user)) {
    throw new ServiceError({ kind: 'server-error', status: 200, message: 'The service did not say who is signed in.' }, 'GET', '/v1/user/whoami');
  }
  return user;
}

/**
 * The whole browser sign-in: a loopback receiver for this attempt, the browser sent to the service's
 * authorization page, the answer awaited, the token checked with the service and only then saved.
 * Denied and timed out are results; an abort throws SignInError 'cancelled'.
 */
export async function signIn(options: SignInOptions): Promise<SignInResult> {
  const receiver = await startLoopbackReceiver({ timeoutMs: options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS, signal: options.signal, ...(options.words ? { words: options.words } : {}) });
  try {
    const url = authorizationUrl(options.authUrl, receiver.redirectUrl, receiver.denyUrl);
    options.onAuthorizationUrl?.(url);
    if (options.openBrowser) {
      try {
        await options.openBrowser(url);
      } catch (error) {
        options.onBrowserError?.(error);
      }
    }
    let outcome;
    try {
      outcome = await receiver.result;
    } catch (error) {
      if (error instanceof SignInError && error.kind === 'timed-out') return { kind: 'timed-out' };
      throw error;
    }
    if (outcome.kind === 'denied') return { kind: 'denied' };
    const user = await verifyToken(options.baseUrl, outcome.token, { signal: options.signal, userAgent: options.userAgent });
    await options.store.write(outcome.token);
    return { kind: 'signed-in', token: outcome.token, user };
  } finally {
    void receiver.close();
  }
}
