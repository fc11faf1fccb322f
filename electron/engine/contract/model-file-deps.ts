import { openedFilesDir, type ModelFileDeps } from '../library/model-files';
import type { Engine } from '../runtime/engine';

/**
 * What a design's model files are read, fetched and opened with ("Open in your slicer", a model's download), from the
 * engine's parts: the handlers, the file addresses and the CLI's `open` call the functions of library/model-files.ts
 * and library/open-in-slicer.ts with it.
 */
export function modelFileDeps(engine: Engine): ModelFileDeps {
  return {
    cache: engine.cache,
    fileRoot: engine.profile.fileCache,
    openedDir: openedFilesDir(engine.profile.root),
    serviceChosen: () => engine.serviceUrl() !== null,
    online: () => engine.connectivity.state.online,
    interactiveClient: () => engine.interactiveClient(),
    changes: engine.changes,
    settings: engine.settings,
  };
}
