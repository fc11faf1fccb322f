import type { CacheRebuild } from '../cache/design-cache';
import type { KeepOffline } from '../keep-offline/keep-offline';
import { askDocumentSizes } from '../library/document-sizes';
import { GeneratedThumbnails, thumbnailsDirOf, type GeneratedThumbnailsDeps } from '../library/generated-thumbnails';
import { Library } from '../library/library';
import { openedFilesDir, type ModelFileDeps } from '../library/model-files';
import type { LibraryDeps } from '../library/library-deps';
import { OwnDesigns } from '../own-designs/own-designs';
import type { OwnDesignsDeps } from '../own-designs/own-designs-deps';
import type { ProfilePaths } from '../profile/profile';
import type { QueueService } from '../queue/queue-service';
import type { Account } from '../runtime/account';
import type { AppSettings } from '../runtime/app-settings';
import type { CatalogueRefresh } from '../runtime/catalogue-refresh';
import type { DesignChanges } from '../runtime/design-changes';
import type { Engine } from '../runtime/engine';
import type { SearchIndexFill } from '../runtime/search-index-fill';
import type { ServiceConnection } from '../runtime/service-connection';
import type { SyncService } from '../runtime/sync-service';
import type { SyncStatusService } from '../runtime/sync-status';
import type { SampleService } from '../sample-service/sample-service';

/** The engine's lifecycle as front ends drive it: the background work, choosing another service, its 'state' and 'service'. */
export type EngineLifecycle = Pick<Engine, 'startBackground' | 'stopBackground' | 'backgroundRunning' | 'backgroundProblem' | 'setServiceUrl' | 'on' | 'off' | 'openBrowser'>;

/** The offline cache's health: whether it was rebuilt when it opened, and marking it damaged after a failure. */
export interface CacheHealth {
  readonly rebuilt: CacheRebuild | null;
  /** A failure that shows the cache is damaged marks it to be rebuilt at the next opening; returns the words to show, else null. */
  noteFailure(error: unknown): string | null;
}

/**
 * Everything front ends may use, built once per engine: each service the one writer of what it changes, with its
 * events. Contract handlers and CLI commands receive these, never the engine or a database.
 */
export interface EngineServices {
  readonly lifecycle: EngineLifecycle;
  /** The profile's folders (where a dropped file is staged, where the log is). */
  readonly profile: ProfilePaths;
  /** The chosen service, its clients, whether it answers, the transfer limits. */
  readonly connection: ServiceConnection;
  readonly account: Account;
  readonly settings: AppSettings;
  /** The sync folder and the queue's runner. */
  readonly sync: SyncService;
  readonly syncStatus: SyncStatusService;
  readonly queue: QueueService;
  readonly catalogue: CatalogueRefresh;
  readonly searchIndex: SearchIndexFill;
  readonly keepOffline: KeepOffline;
  readonly sampleService: SampleService;
  /** What changed in the cache's designs, for whoever shows them. */
  readonly changes: DesignChanges;
  readonly cacheHealth: CacheHealth;
  readonly library: Library;
  readonly ownDesigns: OwnDesigns;
  /** Pictures made in the window from the models of designs that have no image. */
  readonly thumbnails: GeneratedThumbnails;
  /**
   * What a design's model files are read, fetched and opened with ("Open in your slicer", a model's download): the
   * functions of library/model-files.ts and library/open-in-slicer.ts take it.
   */
  readonly modelFiles: ModelFileDeps;
}

/** What the library is made with, from the engine's parts. */
function libraryDeps(engine: Engine): LibraryDeps {
  const { connection } = engine;
  // The sizes of documents the file cache does not hold, asked of the service once and remembered for the engine's life.
  const knownSizes = new Map<string, number>();
  return {
    cache: engine.cache,
    fileRoot: engine.profile.fileCache,
    changes: engine.changes,
    searchIndex: engine.searchIndex,
    keepOffline: engine.keepOffline,
    canAsk: () => connection.serviceUrl() !== null && connection.connectivity.state.online,
    interactiveClient: () => connection.interactiveClient(),
    webUrl: () => connection.webUrl(),
    documentSizes: (files, signal) => {
      const client = connection.serviceUrl() && connection.connectivity.state.online ? connection.interactiveClient() : null;
      return askDocumentSizes(knownSizes, client, files, signal);
    },
  };
}

/** What the own-designs service is made with, from the engine's parts. */
function ownDesignsDeps(engine: Engine): OwnDesignsDeps {
  const { connection, sync, account } = engine;
  return {
    cache: engine.cache,
    queue: engine.queue,
    session: account.session,
    connectivity: connection.connectivity,
    changes: engine.changes,
    client: () => connection.clientIfChosen(),
    interactiveClient: () => connection.interactiveClient(),
    confirmUser: () => account.confirmUser(),
    sync: () => sync.partsIfChosen()?.sync ?? null,
    queueWorkAdded: () => sync.queueWorkAdded(),
    contentPolicyAccepted: () => sync.contentPolicyAccepted(),
    onStateChange: (listener) => {
      engine.on('state', listener);
      return () => engine.off('state', listener);
    },
    designDeleted: (designId) => sync.ownDesignDeleted(designId),
  };
}

/** What model files are read, fetched and opened with, from the engine's parts. */
function modelFileDeps(engine: Engine): ModelFileDeps {
  const { connection } = engine;
  return {
    cache: engine.cache,
    fileRoot: engine.profile.fileCache,
    openedDir: openedFilesDir(engine.profile.root),
    serviceChosen: () => connection.serviceUrl() !== null,
    online: () => connection.connectivity.state.online,
    interactiveClient: () => connection.interactiveClient(),
    changes: engine.changes,
    settings: engine.appSettings.store,
  };
}

/** What the generated pictures are made with, from the engine's parts. */
function thumbnailsDeps(engine: Engine): GeneratedThumbnailsDeps {
  return { cache: engine.cache, dir: thumbnailsDirOf(engine.profile.root), incomingDir: engine.profile.incomingDir };
}

const composed = new WeakMap<Engine, EngineServices>();

/**
 * The engine's services, composed once (the composition root: openEngine opens the stores and the runtime, this
 * builds the application services over them). The library, own designs and pictures are made on first use (a CLI
 * command that only asks who is signed in never warms the search index), and let go when the engine closes.
 */
export function servicesOf(engine: Engine): EngineServices {
  const found = composed.get(engine);
  if (found) return found;
  let library: Library | null = null;
  let ownDesigns: OwnDesigns | null = null;
  let thumbnails: GeneratedThumbnails | null = null;
  const services: EngineServices = {
    lifecycle: engine,
    profile: engine.profile,
    connection: engine.connection,
    account: engine.account,
    settings: engine.appSettings,
    sync: engine.sync,
    syncStatus: engine.syncStatus,
    queue: engine.queueService,
    catalogue: engine.catalogue,
    searchIndex: engine.searchIndex,
    keepOffline: engine.keepOffline,
    sampleService: engine.sampleService,
    changes: engine.changes,
    cacheHealth: engine.cache,
    modelFiles: modelFileDeps(engine),
    get library() {
      if (!library) {
        library = new Library(libraryDeps(engine));
        library.warmUp();
      }
      return library;
    },
    get ownDesigns() {
      ownDesigns ??= new OwnDesigns(ownDesignsDeps(engine));
      return ownDesigns;
    },
    get thumbnails() {
      thumbnails ??= new GeneratedThumbnails(thumbnailsDeps(engine));
      return thumbnails;
    },
  };
  engine.whenClosing(async () => {
    library?.close();
    await ownDesigns?.close();
  });
  composed.set(engine, services);
  return services;
}
