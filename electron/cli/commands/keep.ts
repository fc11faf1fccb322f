import type { KeptDesignStatus } from '../../engine/keep-offline/keep-offline';
import { isServiceError } from '../../engine/api/service-error';
import { keptOfflineWords } from '../../../shared/files/kept-offline-words';
import { wordedOr } from '../../../shared/i18n/engine-words';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { formatBytes } from '../../../shared/i18n/format';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { commandWords } from '../cli-words';

/** One kept design in a line: its name and id, then where it is (the window's words, in the run's language). */
export function keptLine(status: KeptDesignStatus, words: Words = ENGLISH_INTL): string {
  return `${status.name ?? words.formatMessage({ id: 'cli.keep.designNumber' }, { id: String(status.designId) })}  (#${status.designId})  ${keptOfflineWords(status, words)}`;
}

/**
 * `design-sync keep <design...>`: keeps designs offline (all their images and documents downloaded, never evicted),
 * waiting for their downloads and printing their progress; `--release` stops keeping them. `design-sync kept`: what
 * is kept, where each is, and the space they take.
 */
export const keepCommand: CommandModule = (program, context, say) => {
  program
    .command('keep')
    .description(say('cli.help.keep.description'))
    .argument(`<${say('cli.help.argumentName.design')}...>`, say('cli.help.argument.designs'))
    .option('--release', say('cli.help.keep.option.release'))
    .option('--no-wait', say('cli.help.keep.option.noWait'))
    .option('--json', say('cli.help.keep.option.json'))
    .action(async (keys: string[], options: { release?: boolean; wait: boolean; json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { keepOffline, library } = await ctx.services();
      let ids: number[];
      if (options.release) {
        ids = keys.map((key) => {
          const found = keepOffline.list().find((status) => String(status.designId) === key.trim() || status.name === key);
          if (!found) {
            const id = Number(key);
            if (Number.isInteger(id) && id > 0) return id;
            throw CliError.of('cli.keep.notKept', { key: JSON.stringify(key) });
          }
          return found.designId;
        });
        const released = keepOffline.release(ids);
        const notKept = ids.filter((id) => !released.includes(id));
        if (notKept.length > 0) ctx.io.err(words.formatMessage({ id: 'cli.keep.nothingToRelease' }, { designs: notKept.map((id) => `#${id}`).join(', ') }));
        if (!options.json) for (const id of released) ctx.io.out(words.formatMessage({ id: 'cli.keep.released' }, { id: String(id) }));
      } else {
        ctx.serviceUrl();
        try {
          ids = await library.keepOffline(keys.map((key) => (/^\d+$/.test(key.trim()) ? Number(key) : key)), AbortSignal.timeout(60_000));
        } catch (error) {
          // The engine's own refusals are said by runCli in the run's language; the service's as it sent them.
          if (isServiceError(error)) throw new CliError(error.problem.message);
          throw error;
        }
        if (options.wait) {
          let last = '';
          const onProgress = (status: KeptDesignStatus) => {
            if (options.json || !ids.includes(status.designId) || status.state !== 'downloading' || status.filesTotal === 0) return;
            const line = words.formatMessage({ id: 'cli.keep.progress' }, { name: status.name ?? `#${status.designId}`, here: status.filesHere, total: status.filesTotal });
            if (line !== last) ctx.io.err(line);
            last = line;
          };
          keepOffline.on('progress', onProgress);
          try {
            await keepOffline.whenIdle();
          } finally {
            keepOffline.off('progress', onProgress);
          }
        }
        const statuses = ids.map((id) => keepOffline.status(id)).filter((status): status is KeptDesignStatus => status !== null);
        if (!options.json) for (const status of statuses) ctx.io.out(keptLine(status, words));
        const unfinished = statuses.filter((status) => status.state !== 'ready');
        if (options.wait && unfinished.length > 0 && !options.json) {
          ctx.io.err(words.formatMessage({ id: 'cli.keep.notAllHere' }, { count: unfinished.length }));
        }
        if (options.json) ctx.io.out(JSON.stringify({ designs: statuses, bytes: keepOffline.keptBytes() }, null, 2));
        const stopped = statuses.filter((status) => status.state === 'problem');
        if (options.wait && stopped.length > 0) throw new CliError(words.formatMessage({ id: 'cli.keep.notEverything' }, { problems: stopped.map((status) => `${status.name ?? `#${status.designId}`}: ${wordedOr(words, status.problemWords, status.problem ?? '')}`).join('; ') }));
        return;
      }
      if (options.json) ctx.io.out(JSON.stringify({ designs: keepOffline.list(), bytes: keepOffline.keptBytes() }, null, 2));
    });

  program
    .command('kept')
    .description(say('cli.help.kept.description'))
    .option('--json', say('cli.help.option.jsonThem'))
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const words = await commandWords(program, ctx);
      const { keepOffline } = await ctx.services();
      const list = keepOffline.list();
      const total = keepOffline.keptBytes();
      if (options.json) {
        ctx.io.out(JSON.stringify({ designs: list, bytes: total }, null, 2));
        return;
      }
      if (list.length === 0) {
        ctx.io.out(words.formatMessage({ id: 'cli.kept.none' }));
        return;
      }
      for (const status of list) ctx.io.out(keptLine(status, words));
      ctx.io.out(words.formatMessage({ id: 'cli.kept.total' }, { count: list.length, size: formatBytes(words, total) }));
    });
};
