import type { Command } from 'commander';
import { isServiceError, type ServiceError } from '../../engine/api/service-error';
import { isSignInError } from '../../engine/authorization/sign-in-error';
import { DEFAULT_SIGN_IN_TIMEOUT_MS } from '../../engine/authorization/loopback-receiver';
import { normalizeServiceUrl } from '../../engine/profile/profile';
import { CliError, USER_AGENT, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';

interface LoginOptions {
  browser: boolean;
  timeout?: string;
  withToken?: boolean;
  authUrl?: string;
}

/** Opens the system browser with the `open` package. Resolves once it started; rejects when it could not. */
export async function openSystemBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('spawn', () => resolve());
  });
}

function timeoutMsOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SIGN_IN_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`--timeout takes a number of seconds greater than 0, got ${JSON.stringify(raw)}.`);
  return Math.round(seconds * 1000);
}

/** The token could not be checked with the service (GET /v1/user/whoami failed): nothing was saved. */
function notChecked(error: ServiceError): string {
  return `The token could not be checked with the service, so you are not signed in (nothing was saved): ${error.problem.message}`;
}

async function loginWithToken(ctx: CliContext): Promise<void> {
  const text = (await ctx.io.readStdin()).trim();
  if (text === '') throw new CliError('No token on standard input. Pipe one in, e.g.: design-sync login --with-token < token.txt');
  if (/\s/.test(text)) throw new CliError('Expected one token on standard input, found several words or lines.');
  const baseUrl = ctx.serviceUrl();
  const { session } = (await ctx.services({ ignoreTokenProblem: true })).account;
  try {
    const user = await session.signInWithToken(baseUrl, text, { userAgent: USER_AGENT });
    ctx.io.out(`Signed in as ${user.screen_name}`);
    ctx.io.out(`The token is kept ${session.store.describe()}.`);
  } catch (error) {
    if (isSignInError(error, 'token-rejected')) throw new CliError('The service does not accept this token.');
    if (isServiceError(error)) throw new CliError(notChecked(error));
    throw error;
  }
}

async function loginInBrowser(ctx: CliContext, options: LoginOptions): Promise<void> {
  const timeoutMs = timeoutMsOf(options.timeout);
  const baseUrl = ctx.serviceUrl();
  const authUrl = options.authUrl ? normalizeServiceUrl(options.authUrl) : ctx.webUrl();
  const { session } = (await ctx.services({ ignoreTokenProblem: true })).account;
  let result;
  try {
    result = await session.signIn({
      authUrl,
      baseUrl,
      timeoutMs,
      userAgent: USER_AGENT,
      // First and on its own line: it works where no browser can be opened (and lets a test drive the sign-in).
      onAuthorizationUrl: (url) => ctx.io.out(`Open this address to sign in: ${url}`),
      openBrowser: options.browser ? openSystemBrowser : undefined,
      onBrowserError: () => ctx.io.err('Could not open a browser: open the address above yourself.'),
    });
  } catch (error) {
    if (isSignInError(error)) throw new CliError(error.kind === 'token-rejected' ? 'The service does not accept the token the browser handed over. Try again: design-sync login' : error.message);
    if (isServiceError(error)) throw new CliError(notChecked(error));
    throw error;
  }
  switch (result.kind) {
    case 'denied':
      throw new CliError('Sign-in was cancelled in the browser.');
    case 'timed-out':
      throw new CliError(`Sign-in timed out: no answer came from the browser within ${Math.round(timeoutMs / 100) / 10} seconds. Run design-sync login again.`);
    case 'signed-in':
      ctx.io.out(`Signed in as ${result.user.screen_name}`);
      ctx.io.out(`The token is kept ${session.store.describe()}.`);
  }
}

export const loginCommand: CommandModule = (program: Command, context) => {
  program
    .command('login')
    .description('sign in to the service in your browser (or with --with-token, from standard input)')
    .option('--no-browser', 'do not open a browser: only print the address to open')
    .option('--timeout <seconds>', 'how long to wait for the browser (default 300)')
    .option('--with-token', 'read a token from standard input instead of signing in in a browser')
    .option('--auth-url <url>', "where the browser signs in, for this sign-in only (default: the profile's web address, --web-url)")
    .action(async (options: LoginOptions) => {
      const ctx = context();
      if (options.withToken) await loginWithToken(ctx);
      else await loginInBrowser(ctx, options);
    });
};
