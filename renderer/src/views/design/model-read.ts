/**
 * A model file's bytes read into parts, by its type: what the model worker runs (and a clean entry for anything else
 * that needs a model's geometry as plain arrays). Throws UnreadableModelError, with why in words. Each type's reader
 * is loaded when a file of that type comes (or is about to): an STL's worker does not load the XML readers.
 */
import { UnreadableModelError } from './model-error';
import type { ModelRead } from './model-parts';

type Reader = (bytes: ArrayBuffer, type: string) => ModelRead | Promise<ModelRead>;

const loading = new Map<string, Promise<Reader>>();

/** The reader of a type, loaded once. */
export function readerOf(type: string): Promise<Reader> {
  const lower = type.toLowerCase();
  const kind = lower === 'glb' ? 'gltf' : ['3mf', 'amf', 'gltf'].includes(lower) ? lower : 'mesh';
  let reader = loading.get(kind);
  if (!reader) {
    reader = kind === '3mf' ? import('./model-threemf').then((module) => module.threeMfRead)
      : kind === 'amf' ? import('./model-amf').then((module) => module.amfRead)
        : kind === 'gltf' ? import('./model-gltf').then((module) => module.gltfRead)
          : import('./model-mesh-files').then((module) => (bytes: ArrayBuffer, of: string) => module.meshFileRead(of, bytes));
    // A reader that could not be loaded is tried again next time.
    reader.catch(() => loading.delete(kind));
    loading.set(kind, reader);
  }
  return reader;
}

export async function readModel(type: string, bytes: ArrayBuffer): Promise<ModelRead> {
  const lower = type.toLowerCase();
  if (bytes.byteLength === 0) throw new UnreadableModelError('design.model.error.empty');
  return (await readerOf(lower))(bytes, lower);
}
