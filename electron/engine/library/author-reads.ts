import type { UserDesign } from '../../../shared';
import { isServiceError } from '../api/service-error';
import { engineLog } from '../log/engine-log';
import { EngineError } from '../runtime/engine-error';
import type { LibraryDeps } from './library-deps';

/** An author's designs read from the service at most this many pages of 100 (a view, not a mirror). */
const MAX_PAGES = 5;
const READ_TIMEOUT_MS = 8_000;

/**
 * The author and their designs from the users endpoints, stored in the cache (through the designs store); null when
 * the service cannot be asked.
 */
export async function readAuthor(deps: Pick<LibraryDeps, 'cache' | 'canAsk' | 'interactiveClient'>, id: number | string, signal: AbortSignal): Promise<{ userId: number; ids: number[] } | null> {
  if (!deps.canAsk()) return null;
  const { designs } = deps.cache;
  const client = deps.interactiveClient();
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
  try {
    const user = await client.getUser(id, timeout);
    const userId = designs.storeUser(user, 'public');
    if (userId === null) return null;
    const ids: number[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await client.listUserDesigns(userId, { page, limit: 100 }, timeout);
      for (const result of designs.storeDesigns(answer.items as UserDesign[], 'user')) if (result.id !== undefined) ids.push(result.id);
      if (answer.nextPage === null) break;
    }
    designs.fillAuthor(userId, user.screen_name);
    return { userId, ids };
  } catch (error) {
    if (isServiceError(error, 'not-found')) throw new EngineError({ kind: 'not-found', message: `There is no user ${JSON.stringify(String(id))} on the service.` });
    engineLog.warn('contract', `the author ${JSON.stringify(String(id))} could not be read from the service; the cache is shown`, error);
    return null;
  }
}
