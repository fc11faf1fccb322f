import { GeneratedThumbnails } from '../library/generated-thumbnails';
import { engineLog } from '../log/engine-log';
import { Library } from '../library/library';
import { OwnDesigns } from '../own-designs/own-designs';
import type { Engine } from '../runtime/engine';

/** The application services the contract's handlers call: each the one writer of what it changes, with its events. */
export interface EngineServices {
  ownDesigns: OwnDesigns;
  library: Library;
  /** Pictures made in the window from the models of designs that have no image. */
  thumbnails: GeneratedThumbnails;
}

export function openServices(engine: Engine): EngineServices & { close(): Promise<void> } {
  const ownDesigns = new OwnDesigns(engine);
  const library = new Library(engine);
  library.warmUp();
  const thumbnails = new GeneratedThumbnails(engine);
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
