import { isServiceError } from '../api/service-error';
import { refreshDesignFiles } from '../cache/child-lists';
import { getCachedDesign, type CachedDesign } from '../cache/design-reads';
import { upsertDesign } from '../cache/design-writes';
import { engineLog } from '../log/engine-log';
import type { Engine } from '../runtime/engine';
import { EngineError } from '../runtime/engine-error';

/** How long opening a design may wait for the service before it shows what the cache has. */
const READ_TIMEOUT_MS = 5_000;

const canAsk = (engine: Engine) => engine.serviceUrl() !== null && engine.connectivity.state.online;

/**
 * The design from the cache, its images and documents brought up to date first when the service can be reached
 * (conditional GETs: two 304s when nothing changed); a design the cache lacks is read from the service and stored,
 * so it works offline next time. Null when neither has it.
 */
export async function readDesign(engine: Engine, id: number | string, signal: AbortSignal): Promise<CachedDesign | null> {
  const read = () => getCachedDesign(engine.cache.reader, id, { fileRoot: engine.profile.fileCache });
  let cached = read();
  if (!canAsk(engine)) return cached;
  const client = engine.interactiveClient();
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
  try {
    if (!cached) upsertDesign(engine.cache.db, await client.getDesign(id, timeout), 'list', Date.now());
    cached = read();
    if (!cached) return null;
    await refreshDesignFiles(client, engine.cache.db, cached.summary.id, timeout);
  } catch (error) {
    // Offline or slow: what the cache has is shown (or 'not-cached' below). Gone from the service: said so.
    if (!cached && isServiceError(error, 'not-found')) throw new EngineError({ kind: 'not-found', message: `There is no design ${JSON.stringify(String(id))} on the service.` });
    (isServiceError(error, 'offline') ? engineLog.info : engineLog.warn).call(engineLog, 'contract', `design ${JSON.stringify(String(id))}: the service could not be asked; the cached design is shown`, error);
  }
  return read();
}
