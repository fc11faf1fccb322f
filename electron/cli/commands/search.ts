import { isServiceError } from '../../engine/api/service-error';
import type { DesignSummary } from '../../engine/cache/design-reads';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { commandWords } from '../cli-words';

function positiveInt(value: string, name: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw CliError.of('cli.search.limitInvalid', { name, given: JSON.stringify(value) });
  return Number(value);
}

export function formatResults(items: DesignSummary[], words: Words = ENGLISH_INTL): string {
  if (items.length === 0) return words.formatMessage({ id: 'cli.search.none' });
  const yours = words.formatMessage({ id: 'cli.search.yours' });
  const width = Math.max(...items.map((d) => String(d.id).length));
  return items
    .map((d) => `${String(d.id).padStart(width)}  ${d.name}${d.author ? ` — ${d.author}` : ''}${d.license ? ` (${d.license})` : ''}${d.own ? yours : ''}${d.slug ? `  ${d.slug}` : ''}`)
    .join('\n');
}

/** `design-sync search <words…> [--online] [--json]`: from the cache by default; --online asks the service and merges. */
export const searchCommand: CommandModule = (program, context, say) => {
  program
    .command('search')
    .description(say('cli.help.search.description'))
    .argument(`<${say('cli.help.argumentName.query')}...>`, say('cli.help.search.argument.query'))
    .option('--online', say('cli.help.search.option.online'))
    .option('--json', say('cli.help.search.option.json'))
    .option('--limit <n>', say('cli.help.search.option.limit'), '20')
    .option('--page <n>', say('cli.help.search.option.page'), '1')
    .action(async (words: string[], options: { online?: boolean; json?: boolean; limit: string; page: string }) => {
      const ctx = context();
      const said = await commandWords(program, ctx);
      const query = words.join(' ');
      const limit = positiveInt(options.limit, '--limit');
      const page = positiveInt(options.page, '--page');
      // Online needs a service chosen: said plainly when none is.
      if (options.online) ctx.serviceUrl();
      const { library, searchIndex } = await ctx.services();
      const notSearchedYet = searchIndex.waiting();
      let answer;
      try {
        answer = options.online
          ? await library.searchService(query, { page, limit })
          : { source: 'offline' as const, note: null, ...library.searchCache(query, page, limit) };
      } catch (error) {
        // Unreachable is answered from the cache; any other problem of the service is said as it is.
        if (isServiceError(error)) throw CliError.of('cli.search.failed', { problem: error.problem.message });
        throw error;
      }
      // Asked online and answered from the cache: the results are printed, and the command says it did not do its job.
      const fellBack = options.online === true && answer.source !== 'online';
      if (answer.note && !fellBack) ctx.io.err(answer.note);
      if (notSearchedYet > 0) {
        ctx.io.err(said.formatMessage({ id: 'cli.search.notIndexed' }, { count: notSearchedYet }));
      }
      if (options.json) {
        ctx.io.out(JSON.stringify({ query, source: answer.source, page, hasMore: answer.hasMore, note: answer.note, items: answer.items }, null, 2));
      } else {
        ctx.io.out(`${formatResults(answer.items, said)}${answer.hasMore ? `\n${said.formatMessage({ id: 'cli.search.more' }, { page: String(page + 1) })}` : ''}`);
      }
      if (fellBack) throw answer.note ? CliError.of('cli.search.failed', { problem: answer.note }) : CliError.of('cli.search.failedFromCache');
    });
};
