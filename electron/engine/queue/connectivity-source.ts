/**
 * Whether the service can be reached, as the queue needs it: the engine's one source (runtime/connectivity.ts), so
 * that the queue and the status never disagree. The queue waits on it while the service is away.
 */
export interface ConnectivitySource {
  isOnline(): boolean;
  /** Calls `listener` once the service answers again (meanwhile it is probed). Returns the function that cancels it. */
  awaitOnline(listener: () => void): () => void;
}
