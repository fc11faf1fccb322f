import type { PullView } from '../../../../shared';
import type { PullSummary } from '../../cache/pull';

export function pullView(summary: PullSummary): PullView {
  const counts = ({ inserted, updated, unchanged, removed }: PullSummary['designs']) => ({ inserted, updated, unchanged, removed });
  return {
    designs: counts(summary.designs),
    ownDesigns: summary.ownDesigns ? counts(summary.ownDesigns) : null,
    listingComplete: summary.listingComplete,
    filesDownloaded: summary.files.downloaded,
    warnings: summary.warnings,
    durationMs: summary.durationMs,
    finishedAt: new Date().toISOString(),
  };
}
