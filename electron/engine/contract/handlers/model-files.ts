import { modelFileToOpen } from '../../library/model-files';
import type { Handlers } from '../handler-types';

export const MODEL_FILE_HANDLERS: Handlers<'design.openModelFile'> = {
  /**
   * The cached copy of a model file, under its own name, for the host to open with the system's app for its type
   * (the Electron shell does, and tells the window only whether it opened). Never fetched from the service here:
   * `path` is null when the file is not a model kept offline.
   */
  'design.openModelFile': (engine, { documentId }) => ({ opened: false, path: modelFileToOpen(engine, documentId) }),
};
