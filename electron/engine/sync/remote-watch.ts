import type { ServiceClient, Validators } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { engineLog } from '../log/engine-log';
import type { OwnDesignRef } from './remote-pass';

/** How often the own designs' list is asked for while the app runs (a conditional GET: a 304 when nothing changed). */
export const DEFAULT_REMOTE_POLL_MS = 30_000;

/** What one read of the own designs' list found, compared with the read before. */
export interface RemoteChanges {
  /** Designs new to the list, or whose updated_at moved (a file added, changed, renamed or removed; an edit). */
  changed: number[];
  /** Designs the read before had and this one has not (deleted on the service, or no longer the person's). */
  vanished: number[];
  /** Every design of the list, as it is now. */
  listed: OwnDesignRef[];
}

/** Timers, injectable so that tests drive time instead of sleeping. */
export interface WatchTimers {
  setTimeout(run: () => void, ms: number): { unref?(): unknown };
  clearTimeout(handle: unknown): void;
}

export interface RemoteWatchOptions {
  client: ServiceClient;
  /** Between two polls (default 30 s). */
  intervalMs?: number | undefined;
  /** The signed-in user whose designs are watched, once a pass has learnt it (null: not polled yet). */
  userId: () => number | null;
  /** Whether a poll may ask the service now: signed in, sync running, the service reachable. No request otherwise. */
  mayPoll: () => boolean;
  /** Runs a poll in the sync engine's serial chain, so that a poll never overlaps a pass. */
  serial: (work: () => Promise<void>) => Promise<void>;
  /** Told, inside that chain, of what changed on the service since the read before. */
  changed: (changes: RemoteChanges) => Promise<void>;
  /**
   * Asked, inside that chain, when a poll may ask the service but no pass has learnt whose designs to watch yet (the
   * app started while the service could not be reached): a full pass, which learns it. Without it such a poll waits.
   */
  userUnknown?: () => Promise<void>;
  signal: () => AbortSignal;
  timers?: WatchTimers | undefined;
}

interface ListedDesign {
  id?: unknown;
  user_id?: unknown;
  slug?: unknown;
  name?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The service has no events: changes made there (the web, another computer) are found by asking for the own
 * designs' list, GET /v1/users/:me/designs, with the validators of the answer before (If-None-Match / If-Modified-Since).
 * Nothing changed costs one request and a 304; a change names the designs whose updated_at moved, which alone are
 * read again. A service whose updated_at does not move when a file is added is caught by the periodic full rescan.
 */
export class RemoteWatch {
  private readonly intervalMs: number;
  private readonly timers: WatchTimers;
  private timer: unknown = null;
  private running = false;
  private validators: Validators = {};
  private forUser: number | null = null;
  private seen = new Map<number, { updatedAt: string | null; ref: OwnDesignRef }>();
  /** Every design's name as last read, kept after it vanished (for the message about its folder). */
  private readonly names = new Map<number, string>();
  /** Requests this watch made (its polls and the reads passes asked of it): for tests and benchmarks. */
  requests = 0;

  constructor(private readonly options: RemoteWatchOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_REMOTE_POLL_MS;
    this.timers = options.timers ?? { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };
  }

  /** The name a design had in the last list read (for messages about it once it is gone). */
  nameOf(designId: number): string | null {
    return this.names.get(designId) ?? null;
  }

  start(): void {
    if (this.running || this.intervalMs <= 0) return;
    this.running = true;
    this.arm();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Polls now (in the serial chain); the next poll comes an interval after this one. */
  pollNow(): Promise<void> {
    return this.options.serial(async () => {
      if (!this.options.mayPoll()) return;
      const userId = this.options.userId();
      if (userId === null) return this.options.userUnknown?.();
      const changes = await this.read(userId, this.options.signal());
      if (changes && (changes.changed.length > 0 || changes.vanished.length > 0)) await this.options.changed(changes);
    });
  }

  /**
   * Reads the own designs' list conditionally and compares it with the read before. Null when the service answered
   * 304 (nothing changed). The first read of a user finds every design changed. Throws the ServiceError of a failure.
   */
  async read(userId: number, signal?: AbortSignal): Promise<RemoteChanges | null> {
    if (this.forUser !== userId) {
      this.forUser = userId;
      this.validators = {};
      this.seen = new Map();
    }
    this.requests++;
    // One page of up to 100 designs (the spec's largest) is asked for; a longer list is followed page by page on a change.
    const answer = await this.options.client.getConditionalList(`/v1/users/${userId}/designs?limit=100`, this.validators, signal);
    if (answer.notModified) return null;
    const next = new Map<number, { updatedAt: string | null; ref: OwnDesignRef }>();
    for (const item of answer.value as ListedDesign[]) {
      if (typeof item.id !== 'number' || (item.user_id !== undefined && item.user_id !== userId)) continue;
      const ref: OwnDesignRef = { id: item.id, slug: stringOrNull(item.slug), name: stringOrNull(item.name), created_at: stringOrNull(item.created_at) };
      next.set(item.id, { updatedAt: stringOrNull(item.updated_at), ref });
      if (ref.name ?? ref.slug) this.names.set(item.id, (ref.name ?? ref.slug)!);
    }
    const changed = [...next].filter(([id, now]) => this.seen.get(id)?.updatedAt !== now.updatedAt || now.updatedAt === null).map(([id]) => id);
    const vanished = [...this.seen.keys()].filter((id) => !next.has(id));
    this.seen = next;
    // An ETag is enough: If-None-Match wins over If-Modified-Since (and a Last-Modified alone is kept when there is none).
    this.validators = answer.etag ? { etag: answer.etag } : { lastModified: answer.lastModified };
    return { changed, vanished, listed: [...next.values()].map((design) => design.ref) };
  }

  /** The designs as last read (after a 304: they are still so). */
  listed(): OwnDesignRef[] {
    return [...this.seen.values()].map((design) => design.ref);
  }

  private arm(): void {
    if (!this.running) return;
    // One timer at a time: a poll that ends after stop() and start() must not start a second chain of polls.
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    const handle = this.timers.setTimeout(() => {
      this.timer = null;
      void this.pollNow()
        .catch((error: unknown) => {
          // Offline or a refused sign-in are followed elsewhere (connectivity, the session): the next poll tries again.
          if (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') || isServiceError(error, 'token-rejected')) engineLog.info('sync', 'a poll of the service for changes did not get an answer', error);
          else engineLog.warn('sync', 'a poll of the service for changes failed', error);
        })
        .finally(() => this.arm());
    }, this.intervalMs);
    handle.unref?.();
    this.timer = handle;
  }
}
