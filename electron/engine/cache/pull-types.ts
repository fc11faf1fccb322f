/** What a pull is told (PullOptions) and tells back (PullProgress, PullSummary); shared by pullDesigns and pullOwnDesigns. */

export type PullPhase = 'designs' | 'own-designs' | 'images' | 'done';

export interface PullProgress {
  phase: PullPhase;
  done: number;
  /** Null while unknown (a listing without a total count). */
  total: number | null;
}

export const DEFAULT_IMAGE_PREFETCH_LIMIT = 300;

export interface PullOptions {
  signal?: AbortSignal;
  /** Told of progress; when it returns a promise the pull waits for it (backpressure for a slow consumer). */
  onProgress?: (progress: PullProgress) => void | Promise<void>;
  /** Page size of the listings (the service's maximum is 100). */
  pageSize?: number;
  /** Parallel image-list requests and downloads. */
  concurrency?: number;
  /** Renditions downloaded for each design's cover image. */
  renditions?: readonly string[];
  /**
   * How many of other people's designs (newest first, only those with a cover image) get their images
   * listed and their cover downloaded on each pull. Own designs always do. The rest are fetched when opened.
   */
  imagePrefetchLimit?: number;
  /** Refuse to remove designs when the listing shrank by more than this share… */
  maxShrinkRatio?: number;
  /** …while the cache holds more than this many listed designs. */
  shrinkGuardMinimum?: number;
  now?: () => number;
  /**
   * From how many designs in a listing the WAL the pull writes is checkpointed on a thread of its own (default
   * pull-writer.ts CHECKPOINT_THREAD_FROM; 0 always, Infinity never).
   */
  checkpointThreadFrom?: number;
  /**
   * From how many designs in a listing, into a cache holding less than a quarter of it, the listing is written in bulk
   * (default bulk-fill.ts BULK_FILL_FROM; Infinity never).
   */
  bulkFillFrom?: number;
  /**
   * Up to how many designs a bulk fill whose search rows are left behind the pull leaves the indexes it set aside
   * behind it too (default bulk-fill.ts INDEXES_BEHIND_UP_TO).
   */
  indexesBehindUpTo?: number;
  /**
   * When the search rows of the designs a walk adds are written: 'at-walk-end' (the default), in one batch as each
   * walk ends, so the pull returns with every design searchable; 'behind', not by the pull at all: they wait in the
   * search backlog (search-backlog.ts) for whoever fills it behind the pull (the engine's SearchIndexFill), and the
   * walk costs only the design rows (a bulk fill of up to `indexesBehindUpTo` designs leaves the indexes it set aside
   * behind it too).
   */
  searchRows?: SearchRowsTiming;
}

export type SearchRowsTiming = 'at-walk-end' | 'behind';

export interface DesignCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  skipped: number;
}

export interface PullSummary {
  /** The published listing (GET /v1/designs). */
  designs: DesignCounts;
  /** The signed-in user's designs (GET /v1/users/:me/designs), drafts included; null when not signed in. */
  ownDesigns: DesignCounts | null;
  /** Whether the whole published listing was read (only then are designs removed). */
  listingComplete: boolean;
  /** Why the published listing was not read to the end (the problem's message), or null. */
  listingProblem: string | null;
  /** Why the signed-in user's own designs could not be pulled (the problem's message), or null. */
  ownDesignsProblem: string | null;
  /** Designs the listing no longer has but that were kept, because the walk was incomplete or the shrink was refused. */
  removalsWithheld: number;
  images: { designsChecked: number; notModified: number; rowsWritten: number; rowsRemoved: number; documentsChecked: number };
  files: { downloaded: number; bytes: number; alreadyCached: number; failed: number };
  signedInAs: string | null;
  durationMs: number;
  warnings: string[];
}
