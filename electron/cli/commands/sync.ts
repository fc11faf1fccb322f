import type { QueueItem } from '../../engine/queue/queue-item';
import type { SyncService } from '../../engine/runtime/sync-service';
import { syncUntilSent } from '../../engine/runtime/sync-until-sent';
import type { SyncEvent } from '../../engine/sync/sync-context';
import type { PassResult } from '../../engine/sync/sync-engine';
import { CliError, flatWords, type CliContext, type CliIo } from '../cli-context';
import type { CommandModule } from '../command-module';
import type { Words } from '../../../shared/i18n/create-intl';
import { commandWords } from '../cli-words';
import { wordedOr } from '../../../shared/i18n/engine-words';

interface SyncOptions {
  watch?: boolean;
  once?: boolean;
  confirmDeletes?: boolean;
  settleMs?: string;
  allowMassDelete?: boolean;
  rescanMinutes?: string;
  pollSeconds?: string;
  acceptContentPolicy?: boolean;
}

/** Between the facts of the folder's summary line: a mark, not a word. */
const FACT_SEPARATOR = ', ';

function describeItem(item: QueueItem, words: Words): string {
  const what = item.path ?? item.folder ?? words.formatMessage({ id: 'cli.queue.report.itemSubject' }, { id: String(item.id) });
  return `  #${item.id} ${item.kind} ${what}${item.reason ? `: ${item.reason}` : ''}`;
}

function describeEvent(event: SyncEvent, words: Words): string | null {
  switch (event.type) {
    case 'enqueued': {
      const values = { kind: event.item.kind, what: event.item.path ?? event.item.folder };
      return event.item.attention
        ? words.formatMessage({ id: 'cli.sync.event.queuedWaiting' }, { ...values, attention: event.item.attention })
        : words.formatMessage({ id: 'cli.sync.event.queued' }, values);
    }
    case 'downloaded': return words.formatMessage({ id: event.replaced ? 'cli.sync.event.updated' : 'cli.sync.event.downloaded' }, { path: event.path });
    case 'renamed-local': return words.formatMessage({ id: 'cli.sync.event.renamed' }, { from: event.fromPath, to: event.toPath });
    case 'trashed': return words.formatMessage({ id: 'cli.sync.event.trashed' }, { where: event.where, path: event.path });
    case 'conflict': return words.formatMessage({ id: 'cli.sync.event.conflict' }, { path: event.path, copy: event.copyPath });
    case 'folder-created': return words.formatMessage({ id: 'cli.sync.event.folderCreated' }, { folder: event.folder });
    case 'stopped': return words.formatMessage({ id: 'cli.sync.event.stopped' }, { reason: wordedOr(words, event.words, event.reason) });
    case 'resumed': return words.formatMessage({ id: 'cli.sync.event.resumed' });
    case 'warning': return words.formatMessage({ id: 'cli.common.warning' }, { warning: wordedOr(words, event.words, event.message) });
    default: return null;
  }
}

function printPass(io: CliIo, result: PassResult, words: Words): void {
  // Why the service was not checked is said once, by the pass's warning, and again in the summary that fails the command.
  const remote = result.remote;
  if (remote) io.out(words.formatMessage({ id: 'cli.sync.remoteSummary' }, { downloaded: remote.downloaded, replaced: remote.replaced, renamed: remote.renamed, trashed: remote.trashed, conflicts: remote.conflicts }));
  const scan = result.scan;
  if (scan) {
    io.out([
      words.formatMessage({ id: 'cli.sync.folderSummary' }, { files: scan.files, folders: scan.folders, enqueued: scan.enqueued }),
      ...(scan.unsettled.length ? [words.formatMessage({ id: 'cli.sync.folderSummaryUnsettled' }, { count: scan.unsettled.length })] : []),
      ...(scan.heldBack ? [words.formatMessage({ id: 'cli.sync.folderSummaryHeldBack' }, { count: scan.heldBack })] : []),
    ].join(FACT_SEPARATOR));
  }
}

function numberOption(raw: string | undefined, fallback: number, name: string, unit: 'milliseconds' | 'seconds' | 'minutes', words: Words): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new CliError(words.formatMessage({ id: 'cli.sync.numberOption' }, { name, unit, given: raw }));
  return value;
}

/** Rule 5: asked once per profile before anything is uploaded; --accept-content-policy answers for scripts. */
async function ensureContentPolicy(ctx: CliContext, sync: SyncService, accepted: boolean, words: Words): Promise<void> {
  if (sync.contentPolicyAccepted()) return;
  if (accepted) {
    sync.acceptContentPolicy();
    return;
  }
  const answer = (await ctx.io.confirm?.(`${words.formatMessage({ id: 'cli.sync.contentPolicyQuestion' })} `)) ?? null;
  if (answer === true) {
    sync.acceptContentPolicy();
    return;
  }
  throw new CliError(words.formatMessage({ id: answer === false ? 'cli.sync.contentPolicyDeclined' : 'cli.sync.contentPolicyNoTerminal' }));
}

/**
 * `design-sync sync <folder> [--watch] [--confirm-deletes] [--settle-ms N] [--accept-content-policy]`: the first time,
 * makes <folder> the profile's sync folder; brings the own designs and their files from the service, queues the
 * folder's changes and sends them. Without --watch: one pass, exit 0 when everything was sent, 1 when something
 * failed or waits for you (listed). With --watch: the engine works in the background until Ctrl-C.
 */
export const syncCommand: CommandModule = (program, context, say) => {
  program
    .command('sync')
    .description(say('cli.help.sync.description'))
    .argument(`<${say('cli.help.argumentName.folder')}>`, say('cli.help.sync.argument.folder'))
    .option('--watch', say('cli.help.sync.option.watch'))
    .option('--once', say('cli.help.sync.option.once'))
    .option('--poll-seconds <n>', say('cli.help.sync.option.pollSeconds'))
    .option('--confirm-deletes', say('cli.help.sync.option.confirmDeletes'))
    .option('--settle-ms <n>', say('cli.help.sync.option.settleMs'))
    .option('--allow-mass-delete', say('cli.help.sync.option.allowMassDelete'))
    .option('--rescan-minutes <n>', say('cli.help.sync.option.rescanMinutes'))
    .option('--accept-content-policy', say('cli.help.sync.option.acceptContentPolicy'))
    .action(async (folder: string, options: SyncOptions) => {
      const ctx = context();
      ctx.serviceUrl();
      const words = await commandWords(program, ctx);
      const settleMs = numberOption(options.settleMs, 2000, '--settle-ms', 'milliseconds', words);
      const rescanMinutes = numberOption(options.rescanMinutes, 10, '--rescan-minutes', 'minutes', words);
      const pollSeconds = numberOption(options.pollSeconds, 30, '--poll-seconds', 'seconds', words);
      if (options.once && options.watch) throw new CliError(words.formatMessage({ id: 'cli.sync.onceAndWatch' }));
      const services = await ctx.services({ settleMs, rescanIntervalMs: Math.max(0.1, rescanMinutes) * 60_000, remotePollMs: Math.max(1, pollSeconds) * 1000 });
      const { sync: syncService, queue, account, lifecycle } = services;
      const root = syncService.chooseFolder(folder);
      ctx.io.out(words.formatMessage({ id: 'cli.sync.folderChosen' }, { path: root.path }));
      if (account.session.state.status === 'signed-out') throw new CliError(words.formatMessage({ id: 'cli.sync.notSignedIn' }));
      await ensureContentPolicy(ctx, syncService, options.acceptContentPolicy === true, words);

      const { sync } = syncService.syncParts();
      // In one sync, a warning that comes back at its second pass (a download that fails again) is printed once.
      const warned = new Set<string>();
      const print = (event: SyncEvent) => {
        const line = describeEvent(event, words);
        if (!line) return;
        if (event.type === 'warning' && !options.watch) {
          if (warned.has(line)) return;
          warned.add(line);
        }
        (event.type === 'stopped' || event.type === 'warning' ? ctx.io.err : ctx.io.out)(line);
      };
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      sync.on('event', print);
      try {
        if (options.watch) {
          printPass(ctx.io, await sync.syncOnce({ settle: 'wait', allowManyMissing: options.allowMassDelete === true }), words);
          if (options.confirmDeletes) queue.confirmPendingDeletes((item) => ctx.io.out(words.formatMessage({ id: 'cli.sync.confirmedDelete' }, { path: item.path })));
          await lifecycle.startBackground();
          if (lifecycle.backgroundProblem) throw new CliError(lifecycle.backgroundProblem.message);
          ctx.io.out(words.formatMessage({ id: 'cli.sync.watching' }));
          // Watching ends only with Ctrl-C: never because nothing else holds the process (chokidar lets go of a sync
          // folder that vanished; the engine then waits for it to come back, and says so).
          const keepAlive = setInterval(() => {}, 2 ** 30);
          try {
            // Ctrl-C during the first pass has already fired: no wait then.
            if (!abort.signal.aborted) await new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }));
          } finally {
            clearInterval(keepAlive);
          }
          return;
        }
        const result = await syncUntilSent(services, {
          allowManyMissing: options.allowMassDelete === true,
          confirmDeletes: options.confirmDeletes === true,
          signal: abort.signal,
          onFirstPass: (pass) => printPass(ctx.io, pass, words),
          onConfirmedDelete: (item) => ctx.io.out(words.formatMessage({ id: 'cli.sync.confirmedDelete' }, { path: item.path })),
        });
        // Why sync stopped, in the command's language (its facts, the sync engine's), the English for the log.
        if (result.stopped) throw new CliError(result.stopped, 1, flatWords(sync.folderSide.stoppedWords));
        // Scripts read the exit status: not 0 whenever the folder and the service are not in step as asked.
        const { blocked, open, notDone } = result;
        const lines: string[] = [];
        if (notDone.length > 0) {
          lines.push(
            words.formatMessage({ id: 'cli.sync.notAllSynced' }),
            ...notDone.map((line) => `  ${wordedOr(words, line.words, line.text)}`),
            words.formatMessage({ id: 'cli.sync.fixThenAgain' }),
          );
        }
        if (blocked || open.length > 0) {
          // Said once, in words: what the network said is in the engine log.
          const why = !blocked ? null
            : blocked.kind === 'offline' ? 'offline'
            : blocked.kind === 'sign-in' ? 'signIn'
            : blocked.kind === 'content-policy' ? 'contentPolicy'
            : 'rateLimited';
          lines.push(
            why ? words.formatMessage({ id: 'cli.sync.notAllSent' }, { why }) : words.formatMessage({ id: 'cli.sync.someNeedYou' }),
            ...open.map((item) => describeItem(item, words)),
            words.formatMessage({ id: 'cli.sync.seeQueue' }),
          );
        }
        if (lines.length > 0) throw new CliError(lines.join('\n'));
        ctx.io.out(words.formatMessage({ id: 'cli.sync.inSync' }));
      } finally {
        process.off('SIGINT', onSigint);
        sync.off('event', print);
      }
    });
};
