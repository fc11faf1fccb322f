/**
 * A model file's bytes read into parts, by its type: what the model worker runs (and a clean entry for anything else
 * that needs a model's geometry as plain arrays). Throws UnreadableModelError, with why in words.
 */
import { amfRead } from './model-amf';
import { gltfRead } from './model-gltf';
import { meshFileRead, UnreadableModelError, type ModelRead } from './model-parts';
import { threeMfRead } from './model-threemf';

export async function readModel(type: string, bytes: ArrayBuffer): Promise<ModelRead> {
  const lower = type.toLowerCase();
  if (bytes.byteLength === 0) throw new UnreadableModelError('design.model.error.empty');
  switch (lower) {
    case '3mf':
      return threeMfRead(bytes);
    case 'amf':
      return amfRead(bytes);
    case 'gltf':
    case 'glb':
      return gltfRead(bytes);
    default:
      return meshFileRead(lower, bytes);
  }
}
