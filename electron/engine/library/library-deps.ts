import type { ServiceClient } from '../api/service-client';
import type { DesignCache } from '../cache/design-cache';
import type { KeepOffline } from '../keep-offline/keep-offline';
import type { DesignChanges } from '../runtime/design-changes';
import type { SearchIndexFill } from '../runtime/search-index-fill';

/** A document's file whose size is asked of the service (the lists do not say), by address and version. */
export interface SizedFile {
  url: string;
  version: string | null;
}

/**
 * What the library works with, given by whoever composes the engine (contract/engine-services.ts today): never the
 * engine itself.
 */
export interface LibraryDeps {
  /** The cache: read through `reader`; what a read brings from the service written only through `designs` (the designs store). */
  cache: Pick<DesignCache, 'reader' | 'designs'>;
  /** The file cache's folder: whether a design's files are here is read there (never fetched). */
  fileRoot: string;
  /** What changed in the cache's designs: the library tells it on as 'changed'. */
  changes: DesignChanges;
  /** How many designs the search index does not see yet (their rows written behind a pull). */
  searchIndex: Pick<SearchIndexFill, 'waiting'>;
  /** Designs kept offline: keeping them, their state, and a kept design's files checked again when its lists changed. */
  keepOffline: Pick<KeepOffline, 'keep' | 'status' | 'designsChanged'>;
  /** Whether the service can be asked now: one is chosen, and it answers. */
  canAsk: () => boolean;
  /** The client for what a person waits on: one quick retry. Throws a clear problem when no service is chosen. */
  interactiveClient: () => ServiceClient;
  /** The service's web site (a design's page there), or null when no service is chosen. */
  webUrl: () => string | null;
  /** The sizes of files the file cache does not hold, asked of the service (HEAD) and remembered for the engine's life. */
  documentSizes: (files: readonly SizedFile[], signal: AbortSignal) => Promise<Map<string, number>>;
}
