import type { UserDesign } from '../../../shared';
import { isServiceError } from '../api/service-error';
import { fillAuthor, upsertDesigns, upsertUser } from '../cache/design-writes';
import { engineLog } from '../log/engine-log';
import type { Engine } from '../runtime/engine';
import { EngineError } from '../runtime/engine-error';

/** An author's designs read from the service at most this many pages of 100 (a view, not a mirror). */
const MAX_PAGES = 5;
const READ_TIMEOUT_MS = 8_000;

/** The author and their designs from the users endpoints, stored in the cache; null when the service cannot be asked. */
export async function readAuthor(engine: Engine, id: number | string, signal: AbortSignal): Promise<{ userId: number; ids: number[] } | null> {
  if (!engine.serviceUrl() || !engine.connectivity.state.online) return null;
  const client = engine.interactiveClient();
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
  try {
    const user = await client.getUser(id, timeout);
    const userId = upsertUser(engine.cache.db, user, 'public', Date.now());
    if (userId === null) return null;
    const ids: number[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await client.listUserDesigns(userId, { page, limit: 100 }, timeout);
      for (const result of upsertDesigns(engine.cache.db, answer.items as UserDesign[], 'user', Date.now())) if (result.id !== undefined) ids.push(result.id);
      if (answer.nextPage === null) break;
    }
    fillAuthor(engine.cache.db, userId, user.screen_name);
    return { userId, ids };
  } catch (error) {
    if (isServiceError(error, 'not-found')) throw new EngineError({ kind: 'not-found', message: `There is no user ${JSON.stringify(String(id))} on the service.` });
    engineLog.warn('contract', `the author ${JSON.stringify(String(id))} could not be read from the service; the cache is shown`, error);
    return null;
  }
}
