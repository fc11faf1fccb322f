import { Command, CommanderError } from 'commander';
import { isServiceError } from '../engine/api/service-error';
import { systemErrorWords } from '../engine/log/error-words';
import { engineLog } from '../engine/log/engine-log';
import { isEngineError } from '../engine/runtime/engine-error';
import { isQueueRefusal } from '../engine/queue/queue-refusal';
import { createCliContext, CliError, type CliContext, type CliIo, type GlobalOptions } from './cli-context';
import { COMMAND_MODULES } from './commands';
import { EngineNotices } from './engine-notices';
import { fileTokenStore } from './file-token-store-factory';
import { cliWords } from './cli-words';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A yes/no question on the terminal; null when standard input is not one (scripts must pass a flag instead). */
async function confirmOnTerminal(question: string): Promise<boolean | null> {
  if (!process.stdin.isTTY) return null;
  const { createInterface } = await import('node:readline/promises');
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    // "y"/"yes", or "j"/"ja" where the question is in Dutch or German.
    return /^(y(es)?|j(a)?)$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  readStdin,
  confirm: confirmOnTerminal,
};

/** Runs the design-sync CLI; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const program = new Command('design-sync')
    .description('design-sync: browse and sync designs of the design-sharing service from the command line')
    .option('--service <url>', 'the service address (remembered by the profile)')
    .option('--web-url <url>', "the service's web address, where you sign in and design pages open (remembered; default: derived from --service)")
    .option('--profile <dir>', 'where settings, token and cache live (default ~/.design-sync, or $DESIGN_SYNC_PROFILE)')
    .option('--switch-service', 'with --service: sign out of the service this profile is signed in to, then use --service')
    .option('--proxy <address>', "this run's proxy: http://[user:password@]host:port, 'none' or 'system' (default: the profile's proxy setting; 'system' reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY)")
    .option('--max-upload-rate <KB/s>', 'limit what all uploads together send, in KB/s (remembered by the profile; 0: no limit)')
    .option('--max-download-rate <KB/s>', 'limit what all downloads together receive, in KB/s (remembered by the profile; 0: no limit)')
    .option('--lang <code>', "the language of the words printed: en, nl or de (default: the profile's language setting, else LC_ALL, LC_MESSAGES, LANG)")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) });

  let context: CliContext | undefined;
  let notices: EngineNotices | undefined;
  const getContext = () => (context ??= (notices = new EngineNotices(createCliContext(program.opts<GlobalOptions>(), io, fileTokenStore))).context);
  for (const register of COMMAND_MODULES) register(program, getContext);

  // A failure's words in the command's language; English where the language itself was refused.
  const failureWords = async (): Promise<Words> => {
    try {
      return await cliWords(program.opts<{ lang?: string }>().lang, context?.profile.settingsFile ?? null);
    } catch (error) {
      engineLog.warn('cli', 'the command\'s language could not be chosen: its failure is said in English', error);
      return ENGLISH_INTL;
    }
  };

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (isEngineError(error) || isQueueRefusal(error)) {
      io.err(error.problem.message);
      return 1;
    }
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError) {
      io.err(error.words ? (await failureWords()).formatMessage({ id: error.words.id }, error.words.values) : error.message);
      return error.exitCode;
    }
    if (isServiceError(error)) {
      io.err(error.problem.kind === 'token-rejected' ? (await failureWords()).formatMessage({ id: 'cli.common.signInAgain' }, { problem: error.problem.message }) : error.problem.message);
      return 1;
    }
    const damagedCache = notices?.damagedCache(error);
    if (damagedCache) {
      io.err(damagedCache);
      return 1;
    }
    // An unexpected failure: the person sees its words, the log keeps its stack.
    engineLog.error('cli', 'the command failed', error);
    const words = systemErrorWords(error);
    io.err(words !== null ? (await failureWords()).formatMessage({ id: 'cli.common.unexpected' }, { problem: words }) : error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    return 1;
  } finally {
    await context?.close();
  }
}
