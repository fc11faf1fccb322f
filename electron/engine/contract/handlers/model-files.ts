import { openModelFile, slicersView } from '../../library/open-in-slicer';
import type { Handlers } from '../handler-types';

export const MODEL_FILE_HANDLERS: Handlers<'design.openModelFile' | 'design.slicers'> = {
  /**
   * "Open in your slicer": the model file (fetched into the file cache when it holds none) opened with the chosen
   * slicer, or its copy's path for the host to open with the system's default app (the Electron shell does; a browser
   * page downloads the file instead and never gets the path).
   */
  'design.openModelFile': ({ modelFiles }, input, signal) => openModelFile(modelFiles, input, signal),
  'design.slicers': ({ modelFiles }, { documentId }) => slicersView(modelFiles, documentId),
};
