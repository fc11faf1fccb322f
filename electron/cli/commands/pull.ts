import type { DesignCounts, PullSummary } from '../../engine/cache/pull';
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

/** `design-sync pull [--json]`: brings the profile's cache up to date with the service. */
export const pullCommand: CommandModule = (program, context) => {
  program
    .command('pull')
    .description('download the published designs (and, when signed in, your own) into the local cache, with their cover images')
    .option('--json', 'print the summary as JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = context();
      const serviceUrl = ctx.serviceUrl();
      const engine = await ctx.engine();
      const onSignal = () => void engine.catalogue.stop();
      process.once('SIGINT', onSignal);
      try {
        const summary = await engine.catalogue.pullNow();
        ctx.io.out(options.json ? JSON.stringify(summary, null, 2) : formatPullSummary(summary, serviceUrl));
      } finally {
        process.off('SIGINT', onSignal);
      }
    });
};
