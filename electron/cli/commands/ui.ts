import { resolve } from 'node:path';
import { createContractEndpoint } from '../../engine/contract/create-contract-endpoint';
import { PortInUseError, startWindowHost } from '../../window-host/window-host';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { openSystemBrowser } from './login';

/** Where the built window lives (made by the renderer's build). */
export const WINDOW_BUILD_DIR = resolve(import.meta.dirname, '../../../dist/renderer');

function portOf(raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > 65_535) throw new CliError(`--port takes a port number from 0 to 65535 (0: any free port), got ${JSON.stringify(raw)}.`);
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
 * line, `window: <address with its secret>`, and runs until Ctrl-C.
 */
export const uiCommand: CommandModule = (program, context) => {
  program
    .command('ui')
    .description('open the window in your browser (served on 127.0.0.1 only); the engine syncs meanwhile, until Ctrl-C')
    .option('--port <n>', 'the port on 127.0.0.1 (default: any free port)')
    .option('--no-open', 'only print the address: do not open a browser')
    .action(async (options: { port?: string; open: boolean }) => {
      const ctx = context();
      const port = portOf(options.port);
      const engine = await ctx.engine({ openBrowser: openSystemBrowser, ignoreTokenProblem: true });
      const endpoint = createContractEndpoint(engine);
      let host;
      try {
        host = await startWindowHost({ endpoint, port, staticDir: WINDOW_BUILD_DIR, log: (line) => ctx.io.err(line) });
      } catch (error) {
        await endpoint.close();
        if (error instanceof PortInUseError) throw new CliError(error.message);
        throw error;
      }
      try {
        await engine.startBackground();
        if (engine.backgroundProblem) ctx.io.err(`warning: ${engine.backgroundProblem.message}`);
        if (engine.sampleService.problem) ctx.io.err(`warning: ${engine.sampleService.problem}`);
        ctx.io.out(`window: ${host.url}`);
        if (options.open) await openSystemBrowser(host.url).catch(() => ctx.io.err('Could not open a browser: open the address above yourself.'));
        await untilInterrupted();
      } finally {
        await host.close();
        await endpoint.close();
      }
    });
};
