import type { Command } from 'commander';
import { isServiceError, type ServiceError } from '../../engine/api/service-error';
import { isSignInError } from '../../engine/authorization/sign-in-error';
import { DEFAULT_SIGN_IN_TIMEOUT_MS } from '../../engine/authorization/loopback-receiver';
import { normalizeServiceUrl } from '../../engine/profile/profile';
import { CliError, USER_AGENT, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';
import type { Words } from '../../../shared/i18n/create-intl';
import { commandWords } from '../cli-words';

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
  if (!Number.isFinite(seconds) || seconds <= 0) throw CliError.of('cli.login.timeoutInvalid', { given: JSON.stringify(raw) });
  return Math.round(seconds * 1000);
}

/** The token could not be checked with the service (GET /v1/user/whoami failed): nothing was saved. */
function notChecked(error: ServiceError): CliError {
  return CliError.of('cli.login.notChecked', { problem: error.problem.message });
}

async function loginWithToken(ctx: CliContext, words: Words): Promise<void> {
  const text = (await ctx.io.readStdin()).trim();
  if (text === '') throw CliError.of('cli.login.noToken');
  if (/\s/.test(text)) throw CliError.of('cli.login.severalWords');
  const baseUrl = ctx.serviceUrl();
  const { session } = (await ctx.services({ ignoreTokenProblem: true })).account;
  try {
    const user = await session.signInWithToken(baseUrl, text, { userAgent: USER_AGENT });
    ctx.io.out(words.formatMessage({ id: 'cli.login.signedInAs' }, { name: user.screen_name }));
    ctx.io.out(words.formatMessage({ id: 'cli.login.tokenKept' }, { storage: session.store.describe() }));
  } catch (error) {
    if (isSignInError(error, 'token-rejected')) throw CliError.of('cli.login.tokenRejected');
    if (isServiceError(error)) throw notChecked(error);
    throw error;
  }
}

async function loginInBrowser(ctx: CliContext, options: LoginOptions, words: Words): Promise<void> {
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
      onAuthorizationUrl: (url) => ctx.io.out(words.formatMessage({ id: 'cli.login.openAddress' }, { url })),
      openBrowser: options.browser ? openSystemBrowser : undefined,
      onBrowserError: () => ctx.io.err(words.formatMessage({ id: 'cli.login.noBrowser' })),
    });
  } catch (error) {
    if (isSignInError(error)) throw error.kind === 'token-rejected' ? CliError.of('cli.login.browserTokenRejected') : new CliError(error.message);
    if (isServiceError(error)) throw notChecked(error);
    throw error;
  }
  switch (result.kind) {
    case 'denied':
      throw CliError.of('cli.login.cancelled');
    case 'timed-out':
      throw CliError.of('cli.login.timedOut', { seconds: Math.round(timeoutMs / 100) / 10 });
    case 'signed-in':
      ctx.io.out(words.formatMessage({ id: 'cli.login.signedInAs' }, { name: result.user.screen_name }));
      ctx.io.out(words.formatMessage({ id: 'cli.login.tokenKept' }, { storage: session.store.describe() }));
  }
}

export const loginCommand: CommandModule = (program: Command, context, say) => {
  program
    .command('login')
    .description(say('cli.help.login.description'))
    .option('--no-browser', say('cli.help.login.option.noBrowser'))
    .option(`--timeout <${say('cli.help.value.seconds')}>`, say('cli.help.login.option.timeout'))
    .option('--with-token', say('cli.help.login.option.withToken'))
    .option('--auth-url <url>', say('cli.help.login.option.authUrl'))
    .action(async (options: LoginOptions) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      if (options.withToken) await loginWithToken(ctx, words);
      else await loginInBrowser(ctx, options, words);
    });
};
