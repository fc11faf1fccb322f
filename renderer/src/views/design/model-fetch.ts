import type { IntlShape } from '@formatjs/intl';

/** What is needed of an intl: react-intl's `useIntl()` or @formatjs/intl's. */
type Words = Pick<IntlShape, 'formatMessage'>;

/**
 * A model file's bytes fetched from the host with progress: bytes received of the total its answer announces
 * (Content-Length), written into one buffer as they come (no copy of a 200 MB file at the end, which would hold the
 * thread reading it). `signal` aborts the fetch.
 */
export interface FetchProgress { received: number; total: number | null }

/** Why a file's answer is not its bytes: `status`, the host's answer (404: not cached, and the service out of reach). */
export class ModelFetchError extends Error {
  override name = 'ModelFetchError';

  constructor(readonly status: number) {
    super(`the window's host answered ${status}`);
  }
}

export async function fetchModelBytes(url: string, signal: AbortSignal, onProgress: (progress: FetchProgress) => void): Promise<ArrayBuffer> {
  // Not kept by the browser as well: the host serves it from the file cache, and writing a second copy of a file of
  // hundreds of MB into the browser's own cache as it comes slowed its fetching by half.
  const response = await fetch(url, { signal, cache: 'no-store' });
  if (!response.ok) {
    throw new ModelFetchError(response.status);
  }
  const announced = Number(response.headers.get('Content-Length'));
  const total = Number.isSafeInteger(announced) && announced > 0 ? announced : null;
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  let buffer = new Uint8Array(total ?? 1 << 20);
  let received = 0;
  onProgress({ received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (received + value.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(Math.max(buffer.byteLength * 2, received + value.byteLength));
      grown.set(buffer.subarray(0, received));
      buffer = grown;
    }
    buffer.set(value, received);
    received += value.byteLength;
    onProgress({ received, total });
  }
  return received === buffer.byteLength ? buffer.buffer : buffer.slice(0, received).buffer;
}

/** "12.5 of 200 MB", "3.2 of 8 KB" (or "12.5 MB" when the total is not known), in the window's language. */
export function formatProgress(intl: Words, { received, total }: FetchProgress): string {
  const scale = (total ?? received) >= 1024 * 1024 ? { size: 1024 * 1024, unit: 'mb' } : { size: 1024, unit: 'kb' };
  return total
    ? intl.formatMessage({ id: 'design.model.progressOf' }, { received: received / scale.size, total: total / scale.size, unit: scale.unit })
    : intl.formatMessage({ id: 'design.model.progressSoFar' }, { received: received / scale.size, unit: scale.unit });
}
