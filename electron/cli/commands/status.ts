import { setTimeout as sleep } from 'node:timers/promises';
import { engineLog } from '../../engine/log/engine-log';
import { formatReport } from '../../engine/queue/queue-report';
import { SYNC_STATE_LABELS, syncReasonWords, syncStateName } from '../../../shared/sync/sync-state-words';
import { syncUploadWords } from '../../../shared/sync/upload-progress-words';
import { heldBackGroupWords } from '../../../shared/sync/held-back-words';
import type { CommandModule } from '../command-module';
import { cliWords } from '../cli-words';
import { diagnosticsText } from '../diagnostics';
import { proxyDiagnostics } from '../proxy-diagnostics';
import { fileSettingsStore } from '../../engine/settings/settings-store';

/** How often --follow looks at the database for another process's writes (PRAGMA data_version: one cheap read). */
export const FOLLOW_INTERVAL_MS = 250;

/**
 * `design-sync status [--json] [--follow]`: the state of sync, the sync folder, the queue by state, uploads in progress
 * (bytes and percent), and what waits for a person with what to do. --follow prints again whenever the queue changes
 * (written by the app or another command), until Ctrl-C. `--diagnostics` prints instead where the engine log and the
 * profile's files are, the versions and the log's last lines, without opening the engine (so it works on a profile
 * whose databases are damaged).
 */
export const statusCommand: CommandModule = (program, context, say) => {
  program
    .command('status')
    .description(say('cli.help.status.description'))
    .option('--json', say('cli.help.option.json'))
    .option('--follow', say('cli.help.status.option.follow'))
    .option('--diagnostics', say('cli.help.status.option.diagnostics'))
    .action(async (options: { json?: boolean; follow?: boolean; diagnostics?: boolean }) => {
      const ctx = context();
      if (options.diagnostics) {
        let token: string | null = null;
        let tokenProblem: string | null = null;
        try {
          token = await ctx.tokenStore().read();
        } catch (error) {
          // Shown in the output; the log's lines are still redacted by pattern (auth_token=…).
          tokenProblem = (error as Error).message;
        }
        const diagnosticsWords = await cliWords(program.opts<{ lang?: string }>().lang, ctx.profile.settingsFile);
        const proxy = await proxyDiagnostics(ctx.profile, fileSettingsStore(ctx.profile.settingsFile), program.opts<{ proxy?: string }>().proxy, diagnosticsWords);
        ctx.io.out(diagnosticsText(ctx.profile, [...(token ? [token] : []), ...proxy.secrets], tokenProblem, proxy.line, diagnosticsWords));
        return;
      }
      const { queue, connection, syncStatus, sync: syncService } = await ctx.services();
      // One quick question to the service, so that "Offline" is said only when it does not answer.
      await connection.checkConnectivity();
      // The words in the command's language (--lang, the profile's setting, LANG…); --json keeps English and the codes.
      const words = await cliWords(program.opts<{ lang?: string }>().lang, ctx.profile.settingsFile);
      const print = () => {
        const report = queue.report();
        // The overall state from the engine's sync status, in the words the window and the tray use.
        const status = syncStatus.current();
        const facts = { ...status, until: status.until === null ? null : new Date(status.until).toISOString() };
        const reason = syncReasonWords(facts);
        // "Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left", in the words the window and the tray use.
        const progress = syncUploadWords(status);
        const said = { label: syncStateName(status.state, words), reason: syncReasonWords(facts, words), progress: syncUploadWords(status, words) };
        const sync = { state: status.state, label: SYNC_STATE_LABELS[status.state], reasonCode: status.reasonCode, reason, uploads: status.uploads, progress };
        // What the scans held back, grouped by why ("Blender backups: 3 not sent").
        const heldBack = syncService.partsIfChosen()?.sync.heldBack.groups() ?? [];
        const heldLines = heldBack.map((group) => `\n  ${heldBackGroupWords(group, words)}: ${group.examples.join(', ')}${group.count > group.examples.length ? ', …' : ''}`).join('');
        ctx.io.out(options.json
          ? JSON.stringify({ sync, ...report, heldBack }, null, options.follow ? 0 : 2)
          : formatReport(report, `${said.reason ? words.formatMessage({ id: 'cli.status.syncWithReason' }, { label: said.label, reason: said.reason }) : words.formatMessage({ id: 'cli.status.sync' }, { label: said.label })}${said.progress ? `\n${said.progress}` : ''}${heldLines ? `\n${words.formatMessage({ id: 'cli.status.neverSent' })}${heldLines}` : ''}`, words));
      };
      // Taken before the first print: a write landing between the two would otherwise count as already seen.
      const changed = queue.changedSince();
      print();
      if (!options.follow) return;
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        while (!abort.signal.aborted) {
          // Ctrl-C ends the wait early: that is how --follow stops, nothing to report.
          await sleep(FOLLOW_INTERVAL_MS, undefined, { signal: abort.signal }).catch((error: unknown) => {
            if (!abort.signal.aborted) engineLog.warn('cli', 'status --follow: the wait failed', error);
          });
          if (!abort.signal.aborted && changed()) {
            if (!options.json) ctx.io.out(`\n— ${words.formatTime(new Date(), { hour: '2-digit', minute: '2-digit', second: '2-digit' })} —`);
            print();
          }
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
};
