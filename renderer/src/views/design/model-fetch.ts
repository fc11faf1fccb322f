/**
 * A model file's bytes fetched from the host with progress: bytes received of the total its answer announces
 * (Content-Length), written into one buffer as they come (no copy of a 200 MB file at the end, which would hold the
 * page's main thread). `signal` aborts the fetch.
 */
export interface FetchProgress { received: number; total: number | null }

/** Why a file's answer is not its bytes, in words. */
export class ModelFetchError extends Error {
  override name = 'ModelFetchError';
}

export async function fetchModelBytes(url: string, signal: AbortSignal, onProgress: (progress: FetchProgress) => void): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal });
  if (!response.ok) {
    throw new ModelFetchError(response.status === 404 ? 'The file is not cached, and the service cannot be reached.' : `The file could not be read (HTTP ${response.status}).`);
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

/** "12.5 of 200 MB", "3.2 of 8 KB" (or "12.5 MB" when the total is not known). */
export function formatProgress({ received, total }: FetchProgress): string {
  const scale = (total ?? received) >= 1024 * 1024 ? { size: 1024 * 1024, unit: 'MB' } : { size: 1024, unit: 'KB' };
  const of = (bytes: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(bytes / scale.size);
  return total ? `${of(received)} of ${of(total)} ${scale.unit}` : `${of(received)} ${scale.unit}`;
}
