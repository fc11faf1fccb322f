/**
 * Polls `check` until it gives something truthy (returned), or fails naming `what` at the deadline: how tests wait
 * for the engine, the service or a window to get somewhere, instead of sleeping and hoping.
 */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
