/**
 * 3D model files kept offline, handed to the person's own tools: the Electron app opens the cached copy with the
 * system's app for its type (a slicer); in a browser (`design-sync ui`) the window host serves it as a download at an
 * address of its own, never the service's file address (rule 1: link to designs, never to their 3D files).
 */

/** The model types a slicer opens: only these are ever handed to the system (never an executable, whatever its label). */
export const SLICER_FILE_TYPES: readonly string[] = ['stl', 'obj', '3mf', 'amf', 'ply'];

export const MODEL_DOWNLOAD_PREFIX = '/files/downloads/';

/** The window host's own address of a cached model file's download (same origin; the host names the file). */
export const modelDownloadAddress = (documentId: number) => `${MODEL_DOWNLOAD_PREFIX}${documentId}`;

export function isSlicerFileType(type: string): boolean {
  return SLICER_FILE_TYPES.includes(type.toLowerCase());
}
