/**
 * 3D model files kept offline, handed to the person's own tools: the Electron app opens the cached copy with the
 * system's app for its type (a slicer); in a browser (`design-sync ui`) the window host serves it as a download at an
 * address of its own, never the service's file address (rule 1: link to designs, never to their 3D files).
 */

/**
 * The model types handed to a slicer (G-code to a G-code viewer): only these are ever handed to an app or the system
 * (never an executable, whatever the service labels it).
 */
export const SLICER_FILE_TYPES: readonly string[] = ['stl', 'obj', '3mf', 'amf', 'ply', 'step', 'stp', 'gcode'];

/** The choice that hands a model file to the system's app for its type. */
export const SYSTEM_DEFAULT_SLICER = 'system';

/**
 * The model types the window shows in 3D, by their file's extension (lowercased): meshes (STL, OBJ, 3MF, AMF, PLY,
 * glTF and GLB) and G-code as toolpaths. The window host serves these (and keeps them in the file cache) once viewed.
 */
export const VIEWABLE_MODEL_TYPES = ['stl', 'obj', '3mf', 'amf', 'ply', 'gltf', 'glb', 'gcode'] as const;
export type ViewableModelType = (typeof VIEWABLE_MODEL_TYPES)[number];

export function isViewableModelType(type: string): type is ViewableModelType {
  return (VIEWABLE_MODEL_TYPES as readonly string[]).includes(type.toLowerCase());
}

export const MODEL_DOWNLOAD_PREFIX = '/files/downloads/';

/**
 * The window host's own address of a model file's download (same origin; the host names the file): the copy the file
 * cache holds, fetched from the service first when it holds none.
 */
export const modelDownloadAddress = (documentId: number) => `${MODEL_DOWNLOAD_PREFIX}${documentId}`;

export function isSlicerFileType(type: string): boolean {
  return SLICER_FILE_TYPES.includes(type.toLowerCase());
}
