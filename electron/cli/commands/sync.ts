import type { QueueItem } from '../../engine/queue/queue-item';
import { CONTENT_POLICY_REASON } from '../../engine/queue/queue-runner';
import type { SyncService } from '../../engine/runtime/sync-service';
import { syncUntilSent } from '../../engine/runtime/sync-until-sent';
import type { SyncEvent } from '../../engine/sync/sync-context';
import type { PassResult } from '../../engine/sync/sync-engine';
import { CliError, type CliContext, type CliIo } from '../cli-context';
import type { CommandModule } from '../command-module';

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

export const CONTENT_POLICY_QUESTION =
  'Before anything is uploaded: do you confirm that you upload only designs and files you have the right to publish, following the service\'s content policy? [y/N] ';

function describeItem(item: QueueItem): string {
  const what = item.path ?? item.folder ?? `item ${item.id}`;
  return `  #${item.id} ${item.kind} ${what}${item.reason ? `: ${item.reason}` : ''}`;
}

function describeEvent(event: SyncEvent): string | null {
  switch (event.type) {
    case 'enqueued': return `queued: ${event.item.kind} ${event.item.path ?? event.item.folder}${event.item.attention ? ` (waiting for you: ${event.item.attention})` : ''}`;
    case 'downloaded': return `${event.replaced ? 'updated' : 'downloaded'}: ${event.path}`;
    case 'renamed-local': return `renamed here: ${event.fromPath} → ${event.toPath}`;
    case 'trashed': return `moved to ${event.where}: ${event.path} (deleted on the service)`;
    case 'conflict': return `conflict: ${event.path}; your version kept as ${event.copyPath}`;
    case 'folder-created': return `folder made: ${event.folder}`;
    case 'stopped': return `STOPPED: ${event.reason}`;
    case 'resumed': return 'sync resumed';
    case 'warning': return `warning: ${event.message}`;
    default: return null;
  }
}

function printPass(io: CliIo, result: PassResult): void {
  // Why the service was not checked is said once, by the pass's warning, and again in the summary that fails the command.
  const remote = result.remote;
  if (remote) io.out(`from the service: ${remote.downloaded} downloaded, ${remote.replaced} updated, ${remote.renamed} renamed, ${remote.trashed} moved to the trash, ${remote.conflicts} conflicts`);
  const scan = result.scan;
  if (scan) {
    io.out(`folder: ${scan.files} files in ${scan.folders} design folders, ${scan.enqueued} changes queued${scan.unsettled.length ? `, ${scan.unsettled.length} still being written (next pass)` : ''}${scan.heldBack ? `, ${scan.heldBack} never sent (design-sync ignore says why)` : ''}`);
  }
}

function numberOption(raw: string | undefined, fallback: number, name: string, unit: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new CliError(`${name} must be a number of ${unit}, got ${raw}`);
  return value;
}

/** Rule 5: asked once per profile before anything is uploaded; --accept-content-policy answers for scripts. */
async function ensureContentPolicy(ctx: CliContext, sync: SyncService, accepted: boolean): Promise<void> {
  if (sync.contentPolicyAccepted()) return;
  if (accepted) {
    sync.acceptContentPolicy();
    return;
  }
  const answer = (await ctx.io.confirm?.(CONTENT_POLICY_QUESTION)) ?? null;
  if (answer === true) {
    sync.acceptContentPolicy();
    return;
  }
  throw new CliError(answer === false
    ? 'Nothing was synced: uploading needs your confirmation that you have the right to publish what you upload.'
    : `${CONTENT_POLICY_REASON} Run sync in a terminal to be asked, or pass --accept-content-policy to confirm it.`);
}

/**
 * `design-sync sync <folder> [--watch] [--confirm-deletes] [--settle-ms N] [--accept-content-policy]`: the first time,
 * makes <folder> the profile's sync folder; brings the own designs and their files from the service, queues the
 * folder's changes and sends them. Without --watch: one pass, exit 0 when everything was sent, 1 when something
 * failed or waits for you (listed). With --watch: the engine works in the background until Ctrl-C.
 */
export const syncCommand: CommandModule = (program, context) => {
  program
    .command('sync <folder>')
    .description('sync a folder with your own designs: one folder per design; files in it become its images (jpg, jpeg, tiff, bmp, png) and documents')
    .option('--watch', 'keep watching the folder and the service until Ctrl-C (the service is asked for changes every 30 s)')
    .option('--once', 'one full pass, then exit (the default without --watch)')
    .option('--poll-seconds <n>', 'with --watch: seconds between two looks at the service for changes (default 30)')
    .option('--confirm-deletes', 'confirm the deletions on the service of files deleted from the folder (otherwise they wait for you)')
    .option('--settle-ms <n>', 'how long a file must stay unchanged before it is sent (default 2000)')
    .option('--allow-mass-delete', 'propose deleting files even when many vanished at once (each still needs confirming)')
    .option('--rescan-minutes <n>', 'with --watch: minutes between full rescans (default 10)')
    .option('--accept-content-policy', 'confirm that you upload only what you have the right to publish (asked once otherwise)')
    .action(async (folder: string, options: SyncOptions) => {
      const ctx = context();
      ctx.serviceUrl();
      const settleMs = numberOption(options.settleMs, 2000, '--settle-ms', 'milliseconds');
      const rescanMinutes = numberOption(options.rescanMinutes, 10, '--rescan-minutes', 'minutes');
      const pollSeconds = numberOption(options.pollSeconds, 30, '--poll-seconds', 'seconds');
      if (options.once && options.watch) throw new CliError('--once and --watch cannot go together: --once makes one full pass and exits, --watch keeps syncing.');
      const services = await ctx.services({ settleMs, rescanIntervalMs: Math.max(0.1, rescanMinutes) * 60_000, remotePollMs: Math.max(1, pollSeconds) * 1000 });
      const { sync: syncService, queue, account, lifecycle } = services;
      const root = syncService.chooseFolder(folder);
      ctx.io.out(`sync folder: ${root.path}`);
      if (account.session.state.status === 'signed-out') throw new CliError('Not signed in: run `design-sync login` first (sync works on your own designs).');
      await ensureContentPolicy(ctx, syncService, options.acceptContentPolicy === true);

      const { sync } = syncService.syncParts();
      // In one sync, a warning that comes back at its second pass (a download that fails again) is printed once.
      const warned = new Set<string>();
      const print = (event: SyncEvent) => {
        const line = describeEvent(event);
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
          printPass(ctx.io, await sync.syncOnce({ settle: 'wait', allowManyMissing: options.allowMassDelete === true }));
          if (options.confirmDeletes) queue.confirmPendingDeletes((item) => ctx.io.out(`confirmed: delete ${item.path} on the service`));
          await lifecycle.startBackground();
          if (lifecycle.backgroundProblem) throw new CliError(lifecycle.backgroundProblem.message);
          ctx.io.out('watching; Ctrl-C to stop');
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
          onFirstPass: (pass) => printPass(ctx.io, pass),
          onConfirmedDelete: (item) => ctx.io.out(`confirmed: delete ${item.path} on the service`),
        });
        if (result.stopped) throw new CliError(result.stopped);
        // Scripts read the exit status: not 0 whenever the folder and the service are not in step as asked.
        const { blocked, open, notDone } = result;
        const lines: string[] = [];
        if (notDone.length > 0) {
          lines.push(
            'Not everything could be synced:',
            ...notDone.map((message) => `  ${message}`),
            'Fix what is said above, then run `design-sync sync` again: what failed is tried again.',
          );
        }
        if (blocked || open.length > 0) {
          const why = !blocked ? null
            // Said once, in words: what the network said is in the engine log.
            : blocked.kind === 'offline' ? 'the service cannot be reached now; run `design-sync sync` again once it is back'
            : blocked.kind === 'sign-in' ? 'sign in again with `design-sync login`'
            : blocked.kind === 'content-policy' ? CONTENT_POLICY_REASON
            : 'rate limited by the service';
          lines.push(
            why ? `Not everything was sent (${why}).` : 'Some changes need you:',
            ...open.map(describeItem),
            'See `design-sync queue` to confirm, retry or cancel them.',
          );
        }
        if (lines.length > 0) throw new CliError(lines.join('\n'));
        ctx.io.out('in sync.');
      } finally {
        process.off('SIGINT', onSigint);
        sync.off('event', print);
      }
    });
};
