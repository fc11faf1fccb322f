import { isLicenseCode, LICENSES } from '../../../shared';
import { mapWithConcurrency } from '../cache/concurrency';
import type { DesignSummary } from '../cache/design-reads';
import { screenNames } from '../cache/user-reads';
import { engineLog } from '../log/engine-log';
import type { LibraryDeps } from './library-deps';

/** How long resolving the authors of one page may take before its cards say "attribution unavailable". */
const AUTHORS_TIMEOUT_MS = 2_000;

/**
 * Rule 2: the authors of designs whose license needs attribution and whose author the cache lacks, resolved through
 * the users endpoint (GET /v1/users/:id) when the service can be reached, and stored (through the designs store).
 * Returns what is known by id; what stays unknown is shown as "attribution unavailable".
 */
export async function resolveAuthors(deps: Pick<LibraryDeps, 'cache' | 'canAsk' | 'interactiveClient'>, summaries: readonly DesignSummary[]): Promise<Map<number, string>> {
  const missing = [...new Set(summaries
    .filter((summary) => !summary.author && summary.userId !== null && isLicenseCode(summary.license) && LICENSES[summary.license].attributionRequired)
    .map((summary) => summary.userId!))];
  if (missing.length === 0) return new Map();
  const { reader, designs } = deps.cache;
  const known = screenNames(reader, missing);
  const unknown = missing.filter((id) => !known.has(id));
  if (unknown.length === 0 || !deps.canAsk()) return known;
  const client = deps.interactiveClient();
  // One deadline for the page, not one per author: a slow service costs the page 2 s, not 2 s per 4 authors.
  const deadline = AbortSignal.timeout(AUTHORS_TIMEOUT_MS);
  await mapWithConcurrency(unknown, 4, async (id) => {
    if (deadline.aborted) return;
    try {
      const user = await client.getUser(id, deadline);
      if (designs.storeUser(user, 'public') === null) return;
      known.set(id, user.screen_name);
      designs.fillAuthor(id, user.screen_name);
    } catch (error) {
      // Unknown it stays: the card says "attribution unavailable", never shows the design as if none were needed.
      engineLog.warn('contract', `the author ${id} could not be read from the service`, error);
    }
  });
  return known;
}
