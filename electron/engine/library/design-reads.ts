import { isServiceError } from '../api/service-error';
import { getCachedDesign, type CachedDesign } from '../cache/design-reads';
import { engineLog } from '../log/engine-log';
import { EngineError } from '../runtime/engine-error';
import type { LibraryDeps } from './library-deps';

/** How long opening a design may wait for the service before it shows what the cache has. */
const READ_TIMEOUT_MS = 5_000;

/**
 * The design from the cache, its images and documents brought up to date first when the service can be reached
 * (conditional GETs: two 304s when nothing changed); a design the cache lacks is read from the service and stored,
 * so it works offline next time. What it brings is written through the designs store. Null when neither has it.
 */
export async function readDesign(deps: Pick<LibraryDeps, 'cache' | 'fileRoot' | 'canAsk' | 'interactiveClient'>, id: number | string, signal: AbortSignal): Promise<CachedDesign | null> {
  const { reader, designs } = deps.cache;
  const read = () => getCachedDesign(reader, id, { fileRoot: deps.fileRoot });
  let cached = read();
  if (!deps.canAsk()) return cached;
  const client = deps.interactiveClient();
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
  try {
    if (!cached) designs.storeDesign(await client.getDesign(id, timeout));
    cached = read();
    if (!cached) return null;
    await designs.refreshFiles(client, cached.summary.id, timeout);
  } catch (error) {
    // Offline or slow: what the cache has is shown (or 'not-cached' below). Gone from the service: said so.
    if (!cached && isServiceError(error, 'not-found')) throw EngineError.of('not-found', 'engine.refusal.library.noSuchDesign', { design: JSON.stringify(String(id)) });
    (isServiceError(error, 'offline') ? engineLog.info : engineLog.warn).call(engineLog, 'contract', `design ${JSON.stringify(String(id))}: the service could not be asked; the cached design is shown`, error);
  }
  return read();
}
