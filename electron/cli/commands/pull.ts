import { isServiceError } from '../../engine/api/service-error';
import type { DesignCounts, PullProgress, PullSummary } from '../../engine/cache/pull';
import { CliError } from '../cli-context';
import type { CommandModule } from '../command-module';

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function row(label: string, counts: DesignCounts): string {
  const cells = [counts.inserted, counts.updated, counts.unchanged, counts.removed].map((n) => String(n).padStart(10));
  return `${label.padEnd(24)}${cells.join('')}`;
}

export function formatPullSummary(summary: PullSummary, serviceUrl: string): string {
  const lines = [
    `Pulled from ${serviceUrl} in ${(summary.durationMs / 1000).toFixed(1)} s${summary.listingComplete ? '' : ' (listing incomplete)'}`,
    `${''.padEnd(24)}${['inserted', 'updated', 'unchanged', 'removed'].map((h) => h.padStart(10)).join('')}`,
    row('published designs', summary.designs),
  ];
  if (summary.ownDesigns) lines.push(row(`own designs (${summary.signedInAs})`, summary.ownDesigns));
  const images = summary.images;
  lines.push(`images: ${images.designsChecked} designs checked (${images.notModified} not modified), ${images.rowsWritten} image rows written, ${images.rowsRemoved} removed`);
  lines.push(`files: ${summary.files.downloaded} downloaded (${bytes(summary.files.bytes)}), ${summary.files.alreadyCached} already cached${summary.files.failed ? `, ${summary.files.failed} failed` : ''}`);
  if (summary.removalsWithheld > 0) lines.push(`kept: ${summary.removalsWithheld} designs the listing no longer has (see warnings)`);
  if (summary.warnings.length > 0) lines.push('warnings:', ...summary.warnings.map((w) => `  - ${w}`));
  return lines.join('\n');
}

/** How far a pull got, from its progress: what a message about a pull that stopped can say was read. */
interface Reached {
  phase: PullProgress['phase'] | null;
  designs: { done: number; total: number | null };
  ownDesigns: { done: number; total: number | null };
}

function countOf(progress: { done: number; total: number | null }, what: string): string {
  return progress.total !== null ? `${progress.done} of ${progress.total} ${what}` : `${progress.done} ${what}`;
}

/** Why the pull stopped before its end, and what it had read: printed on a failed exit. */
export function stoppedMessage(problem: string, reached: Reached, cancelled: boolean): string {
  const head = cancelled ? 'The pull was cancelled.' : `The pull stopped: ${problem}`;
  const read: string[] = [];
  if (reached.phase === 'designs' || reached.designs.done > 0) read.push(countOf(reached.designs, 'published designs'));
  if (reached.phase === 'own-designs' || reached.ownDesigns.done > 0) read.push(countOf(reached.ownDesigns, 'of your own designs'));
  const kept = read.length > 0 ? `Read before it stopped: ${read.join(', ')} (kept in the cache); no design was removed.` : 'Nothing was read: the cache is as it was.';
  return `${head}\n${kept}${cancelled ? '' : ' Run design-sync pull again once the problem is solved.'}`;
}

/** Null when the pull did everything it should; else why not, and what it read. */
export function incompleteMessage(summary: PullSummary): string | null {
  const lines: string[] = [];
  if (!summary.listingComplete) {
    const { inserted, updated, unchanged } = summary.designs;
    lines.push(`The listing of designs was not read completely: ${summary.listingProblem ?? 'it stopped before its end.'}`,
      `${inserted + updated + unchanged} published designs were read (kept in the cache); no design was removed. Run design-sync pull again once the problem is solved.`);
  }
  if (summary.ownDesignsProblem) lines.push(`Your own designs were not pulled: ${summary.ownDesignsProblem}`);
  return lines.length > 0 ? lines.join('\n') : null;
}

/**
 * `design-sync pull [--json]`: brings the profile's cache up to date with the service. Exits 1, saying why and what was
 * read, when the listing (or, signed in, the own designs) could not be read completely, or the pull stopped.
 */
export const pullCommand: CommandModule = (program, context) => {
  program
    .command('pull')
    .description('download the published designs (and, when signed in, your own) into the local cache, with their cover images')
    .option('--json', 'print the summary as JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const serviceUrl = ctx.serviceUrl();
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
        if (isServiceError(error)) throw new CliError(stoppedMessage(error.problem.message, reached, error.problem.kind === 'cancelled'));
        throw error;
      } finally {
        process.off('SIGINT', onSignal);
        catalogue.off('progress', onProgress);
      }
      ctx.io.out(options.json ? JSON.stringify(summary, null, 2) : formatPullSummary(summary, serviceUrl));
      const incomplete = incompleteMessage(summary);
      if (incomplete) throw new CliError(incomplete);
    });
};
