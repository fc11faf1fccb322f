import { setTimeout as sleep } from 'node:timers/promises';
import { formatReport, queueReport } from '../../engine/queue/queue-report';
import type { CommandModule } from '../command-module';

/** How often --follow looks at the database for another process's writes (PRAGMA data_version: one cheap read). */
export const FOLLOW_INTERVAL_MS = 250;

/**
 * `design-sync status [--json] [--follow]`: the state of sync, the sync folder, the queue by state, uploads in progress
 * (bytes and percent), and what waits for a person with what to do. --follow prints again whenever the queue changes
 * (written by the app or another command), until Ctrl-C.
 */
export const statusCommand: CommandModule = (program, context) => {
  program
    .command('status')
    .description('show the state of sync and of the upload queue: what is uploading, what needs you, what failed')
    .option('--json', 'print JSON')
    .option('--follow', 'print again on every change, until Ctrl-C')
    .action(async (options: { json?: boolean; follow?: boolean }) => {
      const ctx = context();
      const store = (await ctx.engine()).queue;
      const print = () => {
        const report = queueReport(store);
        ctx.io.out(options.json ? JSON.stringify(report, null, options.follow ? 0 : 2) : formatReport(report));
      };
      // Taken before the first print: a write landing between the two would otherwise count as already seen.
      const changed = store.changedSince();
      print();
      if (!options.follow) return;
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        while (!abort.signal.aborted) {
          await sleep(FOLLOW_INTERVAL_MS, undefined, { signal: abort.signal }).catch(() => {});
          if (!abort.signal.aborted && changed()) {
            if (!options.json) ctx.io.out(`\n— ${new Date().toLocaleTimeString()} —`);
            print();
          }
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
};
