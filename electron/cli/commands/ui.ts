import { resolve } from 'node:path';
import { createContractEndpoint } from '../../engine/contract/create-contract-endpoint';
import { PortInUseError, startWindowHost } from '../../window-host/window-host';
import { engineLog } from '../../engine/log/engine-log';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';
import { openSystemBrowser } from './login';
import { wordedOr } from '../../../shared/i18n/engine-words';

/** Where the built window lives (made by the renderer's build). */
export const WINDOW_BUILD_DIR = resolve(import.meta.dirname, '../../../dist/renderer');

function portOf(raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > 65_535) throw CliError.of('cli.ui.portInvalid', { given: JSON.stringify(raw) });
  return Number(raw);
}

/** Resolves at the first Ctrl-C or SIGTERM; a second one, while closing, ends the process as usual. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

/**
 * `design-sync ui [--port N] [--no-open]`: the window in the system browser, for machines without Electron; the global
 * `--service <url>` and `--profile <dir>` work here too (`npm start -- --service <url>` passes them). The engine
 * works in the background meanwhile (sync, queue, catalogue; the sample service of a profile trying it). Prints one
 * line, `window: <address with its secret>` (the same in every language: scripts read it; what to do with it is said on
 * standard error in the person's language), and runs until Ctrl-C.
 */
export const uiCommand: CommandModule = (program, context, say) => {
  program
    .command('ui')
    .description(say('cli.help.ui.description'))
    .option('--port <n>', say('cli.help.ui.option.port'))
    .option('--no-open', say('cli.help.ui.option.noOpen'))
    .action(async (options: { port?: string; open: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const port = portOf(options.port);
      const engine = await ctx.engine({ openBrowser: openSystemBrowser, ignoreTokenProblem: true });
      const endpoint = createContractEndpoint(engine);
      let host;
      try {
        host = await startWindowHost({ endpoint, port, staticDir: WINDOW_BUILD_DIR, log: (line) => ctx.io.err(line) });
      } catch (error) {
        await endpoint.close();
        if (error instanceof PortInUseError) throw CliError.of('cli.ui.portInUse', { port: String(error.port) });
        throw error;
      }
      try {
        await engine.startBackground();
        if (engine.backgroundProblem) ctx.io.err(words.formatMessage({ id: 'cli.common.warning' }, { warning: engine.backgroundProblem.message }));
        if (engine.sampleService.problem) ctx.io.err(words.formatMessage({ id: 'cli.common.warning' }, { warning: wordedOr(words, engine.sampleService.problemWords, engine.sampleService.problem) }));
        ctx.io.out(`window: ${host.url}`);
        if (options.open) {
          await openSystemBrowser(host.url).then(
            () => ctx.io.err(words.formatMessage({ id: 'cli.ui.opened' })),
            (error: unknown) => {
              engineLog.warn('cli', 'ui: the browser could not be opened', error);
              ctx.io.err(words.formatMessage({ id: 'cli.ui.browserNotOpened' }));
            },
          );
        } else {
          ctx.io.err(words.formatMessage({ id: 'cli.ui.openYourself' }));
        }
        await untilInterrupted();
      } finally {
        await host.close();
        await endpoint.close();
      }
    });
};
