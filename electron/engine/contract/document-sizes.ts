import { mapWithConcurrency } from '../cache/concurrency';
import type { Engine } from '../runtime/engine';
import { engineLog } from '../log/engine-log';

/** How long opening a design waits for the sizes of documents not cached yet. */
const SIZE_TIMEOUT_MS = 3_000;
const KNOWN = new WeakMap<Engine, Map<string, number>>();

/**
 * The sizes of documents the file cache does not hold, asked of the service with HEAD requests when it can be reached
 * (the lists do not say), and remembered for this engine's life. Keyed by address and version: a new file asks again.
 */
export async function documentSizes(engine: Engine, files: readonly { url: string; version: string | null }[], signal: AbortSignal): Promise<Map<string, number>> {
  let known = KNOWN.get(engine);
  if (!known) KNOWN.set(engine, (known = new Map()));
  const key = (file: { url: string; version: string | null }) => `${file.version ?? ''} ${file.url}`;
  const missing = files.filter((file) => !known.has(key(file)));
  if (missing.length > 0 && engine.serviceUrl() && engine.connectivity.state.online) {
    const client = engine.interactiveClient();
    const timeout = AbortSignal.any([signal, AbortSignal.timeout(SIZE_TIMEOUT_MS)]);
    await mapWithConcurrency(missing, 4, async (file) => {
      try {
        const size = await client.sizeOf(file.url, timeout);
        if (size !== null) known.set(key(file), size);
      } catch (error) {
        // Unknown it stays: the window shows no size rather than a wrong one.
        engineLog.warn('contract', `the size of ${file.url} could not be asked`, error);
      }
    });
  }
  return new Map(files.flatMap((file) => (known.has(key(file)) ? [[file.url, known.get(key(file))!] as const] : [])));
}
