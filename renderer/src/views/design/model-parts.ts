import type { BufferAttribute, BufferGeometry, Group, LineSegments, Material, Mesh } from 'three';
import { GCodeLoader } from 'three/examples/jsm/loaders/GCodeLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';

/**
 * A model's geometry as plain typed arrays: what the model worker sends back to the page (its buffers transferred,
 * not copied), and what the page makes meshes and toolpaths of. Only the types whose three.js loaders need no DOM are
 * read this way (STL, OBJ, PLY, G-code: the ones that grow to hundreds of megabytes); 3MF and AMF are XML, which only
 * the page can parse (a worker has no DOMParser), and glTF's textures are decoded as images by the page.
 */
export type ModelPart =
  | { kind: 'mesh'; position: Float32Array; normal: Float32Array | null; color: Float32Array | null; index: Uint32Array | Uint16Array | null }
  | { kind: 'points'; position: Float32Array; color: Float32Array | null }
  /** One layer of a G-code file's extruded toolpaths, as line segments in the printer's numbers (Z up), at height z. */
  | { kind: 'layer'; position: Float32Array; z: number };

export const WORKER_MODEL_TYPES: readonly string[] = ['stl', 'obj', 'ply', 'gcode'];

/** Why a file cannot be shown, in words for the person; the page names the file. */
export class UnreadableModelError extends Error {
  override name = 'UnreadableModelError';
}

function floats(geometry: BufferGeometry, name: string): Float32Array | null {
  const attribute = geometry.getAttribute(name) as BufferAttribute | undefined;
  if (!attribute) return null;
  return attribute.array instanceof Float32Array ? attribute.array : Float32Array.from(attribute.array as ArrayLike<number>);
}

function meshPart(geometry: BufferGeometry): ModelPart {
  if (!geometry.hasAttribute('normal')) geometry.computeVertexNormals();
  const index = geometry.index ? geometry.index.array : null;
  return {
    kind: 'mesh', position: floats(geometry, 'position')!, normal: floats(geometry, 'normal'), color: floats(geometry, 'color'),
    index: index instanceof Uint32Array || index instanceof Uint16Array ? index : index ? Uint32Array.from(index as ArrayLike<number>) : null,
  };
}

function gcodeParts(text: string): ModelPart[] {
  const loader = new GCodeLoader();
  loader.splitLayer = true;
  const group: Group = loader.parse(text);
  const parts: ModelPart[] = [];
  for (const child of group.children) {
    const segments = child as LineSegments;
    // Travel moves are left out: only what is extruded is drawn.
    if ((segments.material as Material).name !== 'extruded') continue;
    const position = floats(segments.geometry, 'position');
    if (position && position.length > 0) parts.push({ kind: 'layer', position, z: position[2]! });
  }
  if (parts.length === 0) throw new UnreadableModelError('it has no extrusion moves: there are no toolpaths to show.');
  return parts;
}

/** The parts of a file of one of WORKER_MODEL_TYPES, read by three's loader for its type. */
export function modelParts(type: string, bytes: ArrayBuffer): ModelPart[] {
  switch (type) {
    case 'stl':
      return [meshPart(new STLLoader().parse(bytes))];
    case 'obj': {
      const parts: ModelPart[] = [];
      new OBJLoader().parse(new TextDecoder().decode(bytes)).traverse((child) => {
        if ((child as Mesh).isMesh) parts.push(meshPart((child as Mesh).geometry));
      });
      if (parts.length === 0) throw new UnreadableModelError('it has no faces to show.');
      return parts;
    }
    case 'ply': {
      const geometry = new PLYLoader().parse(bytes);
      // A PLY file without faces is a point cloud (a scan).
      if (!geometry.index && geometry.getAttribute('position').count % 3 !== 0) {
        return [{ kind: 'points', position: floats(geometry, 'position')!, color: floats(geometry, 'color') }];
      }
      return [meshPart(geometry)];
    }
    case 'gcode':
      return gcodeParts(new TextDecoder().decode(bytes));
    default:
      throw new UnreadableModelError(`.${type} files are not read here.`);
  }
}

/** The buffers of parts, to transfer (not copy) from the worker to the page. */
export function partBuffers(parts: ModelPart[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const part of parts) {
    for (const array of [part.position, 'normal' in part ? part.normal : null, 'color' in part ? part.color : null, 'index' in part ? part.index : null]) {
      if (array && array.buffer instanceof ArrayBuffer) buffers.add(array.buffer);
    }
  }
  return [...buffers];
}
