import type { ServiceClient } from '../api/service-client';
import { mapWithConcurrency } from '../cache/concurrency';
import { engineLog } from '../log/engine-log';
import type { SizedFile } from './library-deps';

/** How long opening a design waits for the sizes of documents not cached yet. */
const SIZE_TIMEOUT_MS = 3_000;

/**
 * The sizes of documents the file cache does not hold, asked of the service with HEAD requests when it can be reached
 * (`client` not null: the lists do not say), and kept in `known` (by address and version: a new file asks again).
 */
export async function askDocumentSizes(
  known: Map<string, number>, client: ServiceClient | null, files: readonly SizedFile[], signal: AbortSignal,
): Promise<Map<string, number>> {
  const key = (file: SizedFile) => `${file.version ?? ''} ${file.url}`;
  const missing = files.filter((file) => !known.has(key(file)));
  if (missing.length > 0 && client) {
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
