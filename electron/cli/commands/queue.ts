import type { Command } from 'commander';
import { LICENSE_CODES, QUEUE_STATES } from '../../../shared';
import { subjectOf } from '../../engine/queue/describe-item';
import { isQueueRefusal } from '../../engine/queue/queue-refusal';
import type { PauseLength, QueueService } from '../../engine/queue/queue-service';
import { pauseEndWords } from '../../../shared/sync/sync-state-words';
import { formatItems, percentOf } from '../../engine/queue/queue-report';
import type { EngineServices } from '../../engine/composition/engine-services';
import { notDoneIn } from '../../engine/runtime/sync-until-sent';
import type { SyncEvent } from '../../engine/sync/sync-context';
import type { Words } from '../../../shared/i18n/create-intl';
import { CliError, type CliContext } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';
import { wordedOr } from '../../../shared/i18n/engine-words';

/** What an item is about, in the command's words: its file, its folder, else its number. */
function subjectIn(words: Words, item: Parameters<typeof subjectOf>[0]): string {
  if (item.path !== null) return subjectOf(item);
  return item.folder
    ? words.formatMessage({ id: 'cli.queue.itemSubject.folder' }, { folder: item.folder })
    : words.formatMessage({ id: 'cli.queue.itemSubject.item' }, { id: String(item.id) });
}

/** --for's words: "1h" (or "hour") and "tomorrow". */
function pauseLengthOf(raw: string, words: Words): PauseLength {
  const text = raw.trim().toLowerCase();
  if (text === '1h' || text === 'hour' || text === '1 hour') return 'hour';
  if (text === 'tomorrow') return 'tomorrow';
  throw new CliError(words.formatMessage({ id: 'cli.queue.pauseLengthInvalid' }, { given: JSON.stringify(raw) }));
}

function idOf(raw: string, words: Words): number {
  if (!/^\d+$/.test(raw)) throw new CliError(words.formatMessage({ id: 'cli.queue.itemNumberInvalid' }, { given: JSON.stringify(raw) }));
  return Number(raw);
}

/** The profile's queue service. */
async function withQueue<T>(ctx: CliContext, work: (queue: QueueService) => T): Promise<T> {
  return work((await ctx.services()).queue);
}

interface ConfirmOptions {
  name?: string;
  excerpt?: string;
  license?: string;
  publish?: boolean;
}

function confirmItem(queue: QueueService, id: number, options: ConfirmOptions, words: Words): string {
  const item = queue.item(id);
  if (item.state === 'attention' && item.attention === 'confirm-delete') {
    if (options.name || options.excerpt || options.license || options.publish) throw new CliError(words.formatMessage({ id: 'cli.queue.confirm.notForDeletion' }));
    queue.confirmDeletion(id);
    return words.formatMessage({ id: 'cli.queue.confirm.deletion' }, { subject: subjectIn(words, item) });
  }
  if (item.state === 'attention' && item.attention === 'confirm-design') {
    const missing = (['name', 'excerpt', 'license'] as const).filter((field) => !options[field]);
    if (missing.length > 0) {
      throw new CliError(words.formatMessage({ id: 'cli.queue.confirm.missingFields' }, { id: String(id), subject: subjectIn(words, item), flags: missing.map((f) => `--${f}`).join(', '), licenses: LICENSE_CODES.join(', ') }));
    }
    try {
      queue.confirmNewDesign(id, { name: options.name, excerpt: options.excerpt, license: options.license }, options.publish === true);
    } catch (error) {
      if (isQueueRefusal(error, 'validation') && error.problem.kind === 'validation') {
        throw new CliError(Object.entries(error.problem.fieldErrors).flatMap(([field, messages]) => messages.map((m) => `--${field} ${m}`)).join('\n'));
      }
      throw error;
    }
    return words.formatMessage({ id: 'cli.queue.confirm.newDesign' }, { name: options.name, publish: options.publish ? 'yes' : 'no', subject: subjectIn(words, item) });
  }
  if (item.state === 'attention' && item.attention === 'ready-to-publish') {
    if (options.name || options.excerpt || options.license || options.publish) throw new CliError(words.formatMessage({ id: 'cli.queue.confirm.notForReady' }));
    queue.sendReady(id);
    return words.formatMessage({ id: 'cli.queue.confirm.ready' }, { subject: subjectIn(words, item) });
  }
  throw new CliError(words.formatMessage({ id: 'cli.queue.confirm.nothing' }, { id: String(id), subject: subjectIn(words, item), state: item.state, attention: item.attention ? ` [${item.attention}]` : '' }));
}

/**
 * A decision takes effect at once, as in the window: the designs of what was cancelled are looked at on the service
 * now, so that a file kept there (a deletion turned down) comes back into the folder. Not when another process (the
 * app, `sync --watch`) syncs this profile — two processes never write in the sync folder at once — nor while the
 * service cannot be reached: then the next sync brings it.
 */
async function decisionNow(ctx: CliContext, { connection, sync: syncService }: Pick<EngineServices, 'connection' | 'sync'>, designIds: (number | null)[], words: Words): Promise<void> {
  if (!designIds.some((id) => id !== null) || !connection.serviceUrl() || !syncService.folder()) return;
  if (syncService.otherProcessSyncs()) {
    ctx.io.out(words.formatMessage({ id: 'cli.queue.decision.otherProcess' }));
    return;
  }
  if (!(await connection.checkConnectivity())) {
    ctx.io.out(words.formatMessage({ id: 'cli.queue.decision.offline' }));
    return;
  }
  const { sync } = syncService.syncParts();
  const brought: string[] = [];
  const onEvent = (event: SyncEvent) => {
    if (event.type === 'downloaded') brought.push(event.path);
  };
  sync.on('event', onEvent);
  try {
    const pass = await syncService.applyDecision(designIds);
    for (const path of brought) ctx.io.out(words.formatMessage({ id: 'cli.queue.decision.broughtBack' }, { path }));
    for (const line of pass ? notDoneIn(pass) : []) ctx.io.err(words.formatMessage({ id: 'cli.common.warning' }, { warning: wordedOr(words, line.words, line.text) }));
  } finally {
    sync.off('event', onEvent);
  }
}

/**
 * `design-sync queue [list] [--json] [--all]`, `queue retry|cancel <id|all>`, `queue pause|resume [<id>]`,
 * `queue confirm <id> [--name --excerpt --license --publish]`. They change the queue in the profile's database;
 * a running app or `design-sync sync` notices at once. Cancelling never touches local files; a file kept on the service
 * (a deletion cancelled) is brought back into the sync folder at once.
 */
export const queueCommand: CommandModule = (program: Command, context, say) => {
  const queue = program.command('queue').description(say('cli.help.queue.description'));

  queue
    .command('list', { isDefault: true })
    .description(say('cli.help.queue.list.description'))
    .option('--json', say('cli.help.option.json'))
    .option('--all', say('cli.help.queue.list.option.all'))
    .action(async (options: { json?: boolean; all?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      await withQueue(ctx, (queue) => {
        const items = queue.list(options.all ? { states: QUEUE_STATES } : {});
        if (options.json) {
          ctx.io.out(JSON.stringify(items.map((item) => ({ ...item, percent: percentOf(item) })), null, 2));
          return;
        }
        const { queuePaused, queuePausedUntil } = queue.status();
        const paused = !queuePaused ? ''
          : queuePausedUntil ? `${words.formatMessage({ id: 'cli.queue.list.pausedUntil' }, { until: pauseEndWords(new Date(queuePausedUntil).toISOString(), new Date(), words) })}\n`
            : `${words.formatMessage({ id: 'cli.queue.list.paused' })}\n`;
        ctx.io.out(`${paused}${formatItems(items, words)}`);
      });
    });

  queue
    .command('retry')
    .description(say('cli.help.queue.retry.description'))
    .argument(`<${say('cli.help.argumentName.item')}|all>`, say('cli.help.queue.retry.argument.item'))
    .action(async (target: string) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      await withQueue(ctx, (queue) => {
        if (target === 'all') {
          ctx.io.out(words.formatMessage({ id: 'cli.queue.retry.all' }, { count: queue.retryAll() }));
          return;
        }
        const item = queue.retry(idOf(target, words));
        ctx.io.out(words.formatMessage({ id: 'cli.queue.retry.one' }, { id: String(item.id), subject: subjectIn(words, item) }));
      });
    });

  queue
    .command('cancel')
    .description(say('cli.help.queue.cancel.description'))
    .argument(`<${say('cli.help.argumentName.item')}|all>`, say('cli.help.queue.cancel.argument.item'))
    .action(async (target: string) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const services = await ctx.services();
      const { queue } = services;
      // The designs are looked at here, awaited, with what came back said (decisionNow), not behind the command.
      if (target === 'all') {
        const { count, designIds } = queue.cancelAll({ lookAtService: false });
        ctx.io.out(words.formatMessage({ id: 'cli.queue.cancel.all' }, { count }));
        await decisionNow(ctx, services, designIds, words);
        return;
      }
      const item = queue.cancel(idOf(target, words), { lookAtService: false });
      ctx.io.out(words.formatMessage({ id: 'cli.queue.cancel.one' }, { id: String(item.id), subject: subjectIn(words, item) }));
      await decisionNow(ctx, services, [item.designId], words);
    });

  for (const [name, paused] of [['pause', true], ['resume', false]] as const) {
    const command = queue
      .command(name)
      .description(say(paused ? 'cli.help.queue.pause.description' : 'cli.help.queue.resume.description'))
      .argument(`[${say('cli.help.argumentName.item')}]`, say(paused ? 'cli.help.queue.pause.argument.item' : 'cli.help.queue.resume.argument.item'));
    if (paused) command.option(`--for <${say('cli.help.value.length')}>`, say('cli.help.queue.pause.option.for'));
    command
      .action(async (target: string | undefined, options: { for?: string }) => {
        const ctx = context();
        const words = await commandWords(program, ctx);
        const length = options.for === undefined ? null : pauseLengthOf(options.for, words);
        if (length !== null && target !== undefined) throw new CliError(words.formatMessage({ id: 'cli.queue.pause.forAllOnly' }));
        await withQueue(ctx, (queue) => {
          if (target === undefined) {
            const until = paused ? queue.pauseAll(length).until : (queue.resumeAll(), null);
            ctx.io.out(!paused ? words.formatMessage({ id: 'cli.queue.pause.resumedAll' })
              : until === null ? words.formatMessage({ id: 'cli.queue.pause.pausedAll' })
                : words.formatMessage({ id: 'cli.queue.pause.pausedAllUntil' }, { until: pauseEndWords(new Date(until).toISOString(), new Date(), words) }));
            return;
          }
          const item = paused ? queue.pause(idOf(target, words)) : queue.resume(idOf(target, words));
          ctx.io.out(words.formatMessage({ id: paused ? 'cli.queue.pause.pausedOne' : 'cli.queue.pause.resumedOne' }, { id: String(item.id), subject: subjectIn(words, item) }));
        });
      });
  }

  queue
    .command('confirm')
    .description(say('cli.help.queue.confirm.description'))
    .argument(`<${say('cli.help.argumentName.item')}>`, say('cli.help.queue.confirm.argument.item'))
    .option(`--name <${say('cli.help.value.name')}>`, say('cli.help.queue.confirm.option.name'))
    .option(`--excerpt <${say('cli.help.value.text')}>`, say('cli.help.queue.confirm.option.excerpt'))
    .option(`--license <${say('cli.help.value.code')}>`, say('cli.help.queue.confirm.option.license', { codes: LICENSE_CODES.join(', ') }))
    .option('--publish', say('cli.help.queue.confirm.option.publish'))
    .action(async (target: string, options: ConfirmOptions) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      await withQueue(ctx, (queue) => ctx.io.out(confirmItem(queue, idOf(target, words), options, words)));
    });

  queue
    .command('send-ready')
    .description(say('cli.help.queue.sendReady.description'))
    .action(async () => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const sent = await withQueue(ctx, (queue) => queue.sendAllReady());
      ctx.io.out(sent === 0 ? words.formatMessage({ id: 'cli.queue.sendReady.none' }) : words.formatMessage({ id: 'cli.queue.sendReady.sent' }, { count: sent }));
    });
};
