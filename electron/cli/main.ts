import { CommanderError, type Command } from 'commander';
import { isServiceError } from '../engine/api/service-error';
import { systemErrorWords } from '../engine/log/error-words';
import { engineLog } from '../engine/log/engine-log';
import { isEngineError } from '../engine/runtime/engine-error';
import { isQueueRefusal } from '../engine/queue/queue-refusal';
import { createCliContext, CliError, type CliContext, type CliIo, type GlobalOptions } from './cli-context';
import { COMMAND_MODULES } from './commands';
import { EngineNotices } from './engine-notices';
import { fileTokenStore } from './file-token-store-factory';
import { startWords } from './cli-words';
import { appVersion } from './diagnostics';
import { sayWith, WordedCommand, wordedHelp } from './help-words';
import type { Words } from '../../shared/i18n/create-intl';
import { engineWordsText } from '../../shared/i18n/engine-words';
import { errorWords } from '../../shared/i18n/worded-error';

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

/**
 * The program, its global options and its commands (COMMAND_MODULES), its help and its refusals in `words`; `context`
 * is made once the global options are parsed.
 */
export function cliProgram(words: Words, io: CliIo, context: () => CliContext): Command {
  const say = sayWith(words);
  const program = new WordedCommand('design-sync', say)
    .configureHelp(wordedHelp(words))
    .helpOption('-h, --help', say('cli.help.helpOption'))
    .helpCommand(`help ${say('cli.help.usage.command')}`, say('cli.help.helpCommand'))
    .version(appVersion(), '-V, --version', say('cli.help.versionOption'))
    .description(say('cli.help.program'))
    .option('--service <url>', say('cli.help.option.service'))
    .option('--web-url <url>', say('cli.help.option.webUrl'))
    .option(`--profile <${say('cli.help.value.folder')}>`, say('cli.help.option.profile'))
    .option('--switch-service', say('cli.help.option.switchService'))
    .option(`--proxy <${say('cli.help.value.address')}>`, say('cli.help.option.proxy'))
    .option('--max-upload-rate <KB/s>', say('cli.help.option.maxUploadRate'))
    .option('--max-download-rate <KB/s>', say('cli.help.option.maxDownloadRate'))
    .option(`--lang <${say('cli.help.value.language')}>`, say('cli.help.option.lang'))
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) });
  for (const register of COMMAND_MODULES) register(program, context, say);
  return program;
}

/** Runs the design-sync CLI; resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  // The run's words are known before the program is made, so that its help is in them; a refused --lang is said here,
  // in the language the run would have without it.
  let words: Words;
  try {
    words = await startWords(argv);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.words ? engineWordsText(await startWords(argv, process.env, false), error.words) : error.message);
      return error.exitCode;
    }
    throw error;
  }
  let context: CliContext | undefined;
  let notices: EngineNotices | undefined;
  const getContext = () => (context ??= (notices = new EngineNotices(createCliContext(program.opts<GlobalOptions>(), io, fileTokenStore, words), words)).context);
  const program = cliProgram(words, io, getContext);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (isEngineError(error) || isQueueRefusal(error)) {
      io.err(error.problem.words ? engineWordsText(words, error.problem.words) : error.problem.message);
      return 1;
    }
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CliError) {
      io.err(error.words ? engineWordsText(words, error.words) : error.message);
      return error.exitCode;
    }
    if (isServiceError(error)) {
      io.err(error.problem.kind === 'token-rejected' ? words.formatMessage({ id: 'cli.common.signInAgain' }, { problem: error.problem.message }) : error.problem.message);
      return 1;
    }
    const damagedCache = notices?.damagedCache(error);
    if (damagedCache) {
      io.err(damagedCache);
      return 1;
    }
    // A failure the engine said in its own words (a settings file that cannot be read…): said in the run's language.
    const facts = errorWords(error);
    if (facts) {
      engineLog.warn('cli', 'the command was refused', error);
      io.err(engineWordsText(words, facts));
      return 1;
    }
    // An unexpected failure: the person sees its words, the log keeps its stack.
    engineLog.error('cli', 'the command failed', error);
    const said = systemErrorWords(error);
    io.err(said !== null ? words.formatMessage({ id: 'cli.common.unexpected' }, { problem: said }) : error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    return 1;
  } finally {
    await context?.close();
  }
}
