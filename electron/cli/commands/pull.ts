import { isServiceError } from '../../engine/api/service-error';
import type { DesignCounts, PullProgress, PullSummary } from '../../engine/cache/pull';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { formatBytes, formatNumber } from '../../../shared/i18n/format';
import { commandWords } from '../cli-words';

/** A column of the summary's table: as wide as its widest heading, and at least 10. */
const COLUMNS = ['cli.pull.column.inserted', 'cli.pull.column.updated', 'cli.pull.column.unchanged', 'cli.pull.column.removed'] as const;

function columnWidth(words: Words): number {
  return Math.max(10, ...COLUMNS.map((id) => words.formatMessage({ id }).length + 1));
}

function row(label: string, counts: DesignCounts, words: Words): string {
  const width = columnWidth(words);
  const cells = [counts.inserted, counts.updated, counts.unchanged, counts.removed].map((n) => formatNumber(words, n).padStart(width));
  return `${label.padEnd(24)}${cells.join('')}`;
}

export function formatPullSummary(summary: PullSummary, serviceUrl: string, words: Words = ENGLISH_INTL): string {
  const width = columnWidth(words);
  const lines = [
    words.formatMessage({ id: summary.listingComplete ? 'cli.pull.pulledFrom' : 'cli.pull.pulledFromIncomplete' }, { service: serviceUrl, seconds: summary.durationMs / 1000 }),
    `${''.padEnd(24)}${COLUMNS.map((id) => words.formatMessage({ id }).padStart(width)).join('')}`,
    row(words.formatMessage({ id: 'cli.pull.row.published' }), summary.designs, words),
  ];
  if (summary.ownDesigns) lines.push(row(words.formatMessage({ id: 'cli.pull.row.own' }, { name: summary.signedInAs ?? '' }), summary.ownDesigns, words));
  const images = summary.images;
  lines.push(words.formatMessage({ id: 'cli.pull.images' }, { checked: images.designsChecked, notModified: images.notModified, written: images.rowsWritten, removed: images.rowsRemoved }));
  const files = { downloaded: summary.files.downloaded, size: formatBytes(words, summary.files.bytes), cached: summary.files.alreadyCached };
  lines.push(summary.files.failed
    ? words.formatMessage({ id: 'cli.pull.filesFailed' }, { ...files, failed: summary.files.failed })
    : words.formatMessage({ id: 'cli.pull.files' }, files));
  if (summary.removalsWithheld > 0) lines.push(words.formatMessage({ id: 'cli.pull.keptWithheld' }, { count: summary.removalsWithheld }));
  if (summary.warnings.length > 0) lines.push(words.formatMessage({ id: 'cli.pull.warnings' }), ...summary.warnings.map((w) => `  - ${w}`));
  return lines.join('\n');
}

/** How far a pull got, from its progress: what a message about a pull that stopped can say was read. */
interface Reached {
  phase: PullProgress['phase'] | null;
  designs: { done: number; total: number | null };
  ownDesigns: { done: number; total: number | null };
}

/** Why the pull stopped before its end, and what it had read: printed on a failed exit. */
export function stoppedMessage(problem: string, reached: Reached, cancelled: boolean, words: Words = ENGLISH_INTL): string {
  const head = cancelled ? words.formatMessage({ id: 'cli.pull.cancelled' }) : words.formatMessage({ id: 'cli.pull.stopped' }, { problem });
  const read: string[] = [];
  if (reached.phase === 'designs' || reached.designs.done > 0) {
    const { done, total } = reached.designs;
    read.push(total !== null ? words.formatMessage({ id: 'cli.pull.readPublishedOf' }, { done, total }) : words.formatMessage({ id: 'cli.pull.readPublished' }, { done }));
  }
  if (reached.phase === 'own-designs' || reached.ownDesigns.done > 0) {
    const { done, total } = reached.ownDesigns;
    read.push(total !== null ? words.formatMessage({ id: 'cli.pull.readOwnOf' }, { done, total }) : words.formatMessage({ id: 'cli.pull.readOwn' }, { done }));
  }
  const kept = read.length > 0
    ? words.formatMessage({ id: cancelled ? 'cli.pull.readBeforeStop' : 'cli.pull.readBeforeStopAgain' }, { read: read.join(', ') })
    : words.formatMessage({ id: cancelled ? 'cli.pull.nothingRead' : 'cli.pull.nothingReadAgain' });
  return `${head}\n${kept}`;
}

/** Null when the pull did everything it should; else why not, and what it read. */
export function incompleteMessage(summary: PullSummary, words: Words = ENGLISH_INTL): string | null {
  const lines: string[] = [];
  if (!summary.listingComplete) {
    const { inserted, updated, unchanged } = summary.designs;
    lines.push(summary.listingProblem ? words.formatMessage({ id: 'cli.pull.listingIncomplete' }, { problem: summary.listingProblem }) : words.formatMessage({ id: 'cli.pull.listingStoppedEarly' }),
      words.formatMessage({ id: 'cli.pull.publishedRead' }, { count: inserted + updated + unchanged }));
  }
  if (summary.ownDesignsProblem) lines.push(words.formatMessage({ id: 'cli.pull.ownNotPulled' }, { problem: summary.ownDesignsProblem }));
  return lines.length > 0 ? lines.join('\n') : null;
}

/**
 * `design-sync pull [--json]`: brings the profile's cache up to date with the service. Exits 1, saying why and what was
 * read, when the listing (or, signed in, the own designs) could not be read completely, or the pull stopped.
 */
export const pullCommand: CommandModule = (program, context, say) => {
  program
    .command('pull')
    .description(say('cli.help.pull.description'))
    .option('--json', say('cli.help.pull.option.json'))
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const serviceUrl = ctx.serviceUrl();
      const words = await commandWords(program, ctx);
      const { catalogue, searchIndex } = await ctx.services();
      const reached: Reached = { phase: null, designs: { done: 0, total: null }, ownDesigns: { done: 0, total: null } };
      const onProgress = (progress: PullProgress) => {
        reached.phase = progress.phase;
        if (progress.phase === 'designs') reached.designs = progress;
        if (progress.phase === 'own-designs') reached.ownDesigns = progress;
      };
      const onSignal = () => void Promise.all([catalogue.stop(), searchIndex.stop()]);
      catalogue.on('progress', onProgress);
      process.once('SIGINT', onSignal);
      let summary: PullSummary;
      try {
        summary = await catalogue.pullNow();
        // The search rows of the designs it added, written behind the walk: searchable before the command ends.
        searchIndex.start();
        await searchIndex.whenIdle();
      } catch (error) {
        if (isServiceError(error)) throw new CliError(stoppedMessage(error.problem.message, reached, error.problem.kind === 'cancelled', words));
        throw error;
      } finally {
        process.off('SIGINT', onSignal);
        catalogue.off('progress', onProgress);
      }
      ctx.io.out(options.json ? JSON.stringify(summary, null, 2) : formatPullSummary(summary, serviceUrl, words));
      const incomplete = incompleteMessage(summary, words);
      if (incomplete) throw new CliError(incomplete);
    });
};
