import { GeneratedThumbnails, thumbnailsDirOf, type GeneratedThumbnailsDeps } from '../library/generated-thumbnails';
import { engineLog } from '../log/engine-log';
import { Library } from '../library/library';
import type { LibraryDeps } from '../library/library-deps';
import { OwnDesigns } from '../own-designs/own-designs';
import type { OwnDesignsDeps } from '../own-designs/own-designs-deps';
import type { Engine } from '../runtime/engine';
import { ownDesignDeleted } from '../runtime/sync-actions';
import { documentSizes } from './document-sizes';

/** The application services the contract's handlers call: each the one writer of what it changes, with its events. */
export interface EngineServices {
  ownDesigns: OwnDesigns;
  library: Library;
  /** Pictures made in the window from the models of designs that have no image. */
  thumbnails: GeneratedThumbnails;
}

/** What the library is made with, from the engine's parts. */
export function libraryDeps(engine: Engine): LibraryDeps {
  return {
    cache: engine.cache,
    fileRoot: engine.profile.fileCache,
    changes: engine.changes,
    searchIndex: engine.searchIndex,
    keepOffline: engine.keepOffline,
    canAsk: () => engine.serviceUrl() !== null && engine.connectivity.state.online,
    interactiveClient: () => engine.interactiveClient(),
    webUrl: () => engine.webUrl(),
    documentSizes: (files, signal) => documentSizes(engine, files, signal),
  };
}

/** What the own-designs service is made with, from the engine's parts. */
export function ownDesignsDeps(engine: Engine): OwnDesignsDeps {
  return {
    cache: engine.cache,
    queue: engine.queue,
    session: engine.session,
    connectivity: engine.connectivity,
    changes: engine.changes,
    client: () => (engine.serviceUrl() ? engine.client() : null),
    interactiveClient: () => engine.interactiveClient(),
    confirmUser: () => engine.confirmUser(),
    sync: () => (engine.serviceUrl() ? engine.syncParts().sync : null),
    queueWorkAdded: () => engine.queueWorkAdded(),
    contentPolicyAccepted: () => engine.contentPolicyAccepted(),
    onStateChange: (listener) => {
      engine.on('state', listener);
      return () => engine.off('state', listener);
    },
    designDeleted: (designId) => ownDesignDeleted(engine, designId),
  };
}

/** What the generated pictures are made with, from the engine's parts. */
export function thumbnailsDeps(engine: Engine): GeneratedThumbnailsDeps {
  return { cache: engine.cache, dir: thumbnailsDirOf(engine.profile.root), incomingDir: engine.profile.incomingDir };
}

export function openServices(engine: Engine): EngineServices & { close(): Promise<void> } {
  const ownDesigns = new OwnDesigns(ownDesignsDeps(engine));
  const library = new Library(libraryDeps(engine));
  library.warmUp();
  const thumbnails = new GeneratedThumbnails(thumbnailsDeps(engine));
  thumbnails.sweep().catch((error: unknown) => engineLog.warn('thumbnails', 'the pictures of designs no longer cached could not be swept', error));
  return {
    ownDesigns,
    library,
    thumbnails,
    async close() {
      library.close();
      await ownDesigns.close();
    },
  };
}
