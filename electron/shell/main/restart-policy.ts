/**
 * Whether to start the engine process again after it ended unexpectedly: at most `limit` restarts within `windowMs`,
 * each after a growing delay. Past that the app stops trying and says so, rather than crash-looping.
 */
export class RestartPolicy {
  private readonly restarts: number[] = [];

  constructor(private readonly limit = 3, private readonly windowMs = 60_000) {}

  /** The delay before the next start, or null when it has failed too often. */
  next(now = Date.now()): number | null {
    while (this.restarts.length > 0 && now - this.restarts[0]! > this.windowMs) this.restarts.shift();
    if (this.restarts.length >= this.limit) return null;
    this.restarts.push(now);
    return 500 * 2 ** (this.restarts.length - 1);
  }
}
