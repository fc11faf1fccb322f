import { ServiceClient } from '../../engine/api/service-client';
import { isServiceError } from '../../engine/api/service-error';
import { Session } from '../../engine/authorization/session';
import { openDesignCache } from '../../engine/cache/design-cache';
import { pullDesigns } from '../../engine/cache/pull';
import { QueueRunner, queueClient } from '../../engine/queue/queue-runner';
import type { QueueItem } from '../../engine/queue/queue-store';
import type { OwnDesignRef } from '../../engine/sync/remote-pass';
import type { SyncEvent } from '../../engine/sync/sync-context';
import { openSyncDatabase } from '../../engine/sync-state/sync-database';
import { SyncEngine, type PassResult } from '../../engine/sync/sync-engine';
import { SyncRootError } from '../../engine/sync-state/sync-root';
import { CliError, type CliIo } from '../cli-context';
import type { CommandModule } from './index';

interface SyncOptions {
  watch?: boolean;
  confirmDeletes?: boolean;
  settleMs?: string;
  allowMassDelete?: boolean;
  rescanMinutes?: string;
}

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
  if (result.remoteSkipped) io.err(`service not checked: ${result.remoteSkipped}`);
  const remote = result.remote;
  if (remote) io.out(`from the service: ${remote.downloaded} downloaded, ${remote.replaced} updated, ${remote.renamed} renamed, ${remote.trashed} moved to the trash, ${remote.conflicts} conflicts`);
  const scan = result.scan;
  if (scan) {
    io.out(`folder: ${scan.files} files in ${scan.folders} design folders, ${scan.enqueued} changes queued${scan.unsettled.length ? `, ${scan.unsettled.length} still being written (next pass)` : ''}`);
  }
}

/** The own designs as the pull left them in the cache (drafts included). */
function ownDesignsFromCache(db: ReturnType<typeof openDesignCache>['db']): OwnDesignRef[] {
  return db.prepare('SELECT id, slug, name, created_at FROM designs WHERE is_own = 1 ORDER BY id').all() as OwnDesignRef[];
}

/**
 * `design-sync sync <folder> [--watch] [--confirm-deletes] [--settle-ms N]`: the first time, makes <folder> the
 * profile's sync folder; pulls own designs, makes their folders, brings the service's changes in, queues the
 * folder's changes and sends them. Without --watch: one pass, exit 0 when everything was sent, 1 when something
 * failed or waits for you (listed). With --watch: goes on until Ctrl-C.
 */
export const syncCommand: CommandModule = (program, context) => {
  program
    .command('sync <folder>')
    .description('sync a folder with your own designs: one folder per design; files in it become its images (jpg, jpeg, tiff, bmp, png) and documents')
    .option('--watch', 'keep watching the folder and the service until Ctrl-C')
    .option('--confirm-deletes', 'confirm the deletions on the service of files deleted from the folder (otherwise they wait for you)')
    .option('--settle-ms <n>', 'how long a file must stay unchanged before it is sent (default 2000)')
    .option('--allow-mass-delete', 'propose deleting files even when many vanished at once (each still needs confirming)')
    .option('--rescan-minutes <n>', 'with --watch: minutes between full rescans (default 10)')
    .action(async (folder: string, options: SyncOptions) => {
      const ctx = context();
      const baseUrl = ctx.serviceUrl();
      const session = new Session(ctx.tokenStore());
      await session.load();
      const client = new ServiceClient(session.transportOptions({ baseUrl, userAgent: 'design-sync-cli' }));
      const settleMs = options.settleMs !== undefined ? Number(options.settleMs) : 2000;
      if (!Number.isFinite(settleMs) || settleMs < 0) throw new CliError(`--settle-ms must be a number of milliseconds, got ${options.settleMs}`);
      const rescanMinutes = options.rescanMinutes !== undefined ? Number(options.rescanMinutes) : 10;

      const db = openSyncDatabase(ctx.profile.syncDatabase);
      const cache = openDesignCache(ctx.profile);
      const abort = new AbortController();
      const engine = new SyncEngine({
        db, client, session, settleMs, rescanIntervalMs: Math.max(0.1, rescanMinutes) * 60_000,
        ownDesigns: async (signal) => {
          try {
            await pullDesigns(client, cache.db, cache.files, { signal });
          } catch (error) {
            // Offline: the own designs the cache knows still get their folders; the service part of the pass waits.
            if (!isServiceError(error, 'offline')) throw error;
            if (ownDesignsFromCache(cache.db).length === 0) throw error;
          }
          return ownDesignsFromCache(cache.db);
        },
      });
      const runner = new QueueRunner({ store: engine.queue, session, client: queueClient(session, baseUrl, 'design-sync-cli'), settleMs });
      const stoppedNow = () => {
        const status = engine.queue.status();
        return status.state === 'stopped' ? status.reason ?? 'Sync is stopped.' : null;
      };
      const print = (event: SyncEvent) => {
        const line = describeEvent(event);
        if (line) (event.type === 'stopped' || event.type === 'warning' ? ctx.io.err : ctx.io.out)(line);
      };
      const onSigint = () => abort.abort();
      process.once('SIGINT', onSigint);
      try {
        try {
          const root = engine.root.choose(folder, { profileDir: ctx.profile.root });
          ctx.io.out(`sync folder: ${root.path}`);
        } catch (error) {
          if (error instanceof SyncRootError) throw new CliError(error.message);
          throw error;
        }
        if (session.state.status === 'signed-out') throw new CliError('Not signed in: run `design-sync login` first (sync works on your own designs).');
        engine.on('event', print);

        const first = await engine.syncOnce({ settle: 'wait', allowManyMissing: options.allowMassDelete === true });
        printPass(ctx.io, first);
        if (first.stopped) throw new CliError(first.stopped);
        if (options.confirmDeletes) {
          for (const item of engine.queue.list({ states: ['attention'] })) {
            if (item.kind !== 'delete-remote' || item.attention !== 'confirm-delete') continue;
            engine.queue.confirm(item.id);
            ctx.io.out(`confirmed: delete ${item.path} on the service`);
          }
        }
        runner.start();
        if (options.watch) {
          await engine.start({ watch: true, firstPass: { settle: 'once' } });
          ctx.io.out('watching; Ctrl-C to stop');
          await new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }));
          return;
        }
        await runner.waitUntil(() => {
          const { counts } = engine.queue.status();
          return (counts.waiting === 0 && counts.running === 0) || runner.blockedBy !== null || stoppedNow() !== null || abort.signal.aborted;
        });
        // What the queue sent may need a last look (a design made from a folder: its files).
        const last = await engine.syncOnce({ settle: 'wait' });
        if (last.scan && last.scan.enqueued > 0) {
          await runner.waitUntil(() => {
            const { counts } = engine.queue.status();
            return (counts.waiting === 0 && counts.running === 0) || runner.blockedBy !== null || stoppedNow() !== null || abort.signal.aborted;
          });
        }
        // The sync folder went while the queue was sending: nothing more leaves (the runner holds it).
        const stopped = stoppedNow();
        if (stopped) throw new CliError(stopped);
        const blocked = runner.blockedBy;
        const open = engine.queue.list({ states: ['failed', 'attention', 'waiting'] });
        if (blocked || open.length > 0) {
          const lines = [
            blocked ? `Not everything was sent (${blocked.kind === 'offline' ? `the service cannot be reached: ${blocked.message}` : blocked.kind === 'sign-in' ? 'sign in again with `design-sync login`' : 'rate limited by the service'}).` : 'Some changes need you:',
            ...open.map(describeItem),
            'See `design-sync queue` to confirm, retry or cancel them.',
          ];
          throw new CliError(lines.join('\n'));
        }
        ctx.io.out('in sync.');
      } finally {
        process.off('SIGINT', onSigint);
        engine.off('event', print);
        await runner.stop();
        await engine.stop();
        cache.close();
        db.close();
      }
    });
};
