/**
 * STL, OBJ, PLY and G-code read by three.js's own loaders for their types (none of which needs a DOM), in the model
 * worker: loaded there only for a file of these types.
 */
import type { BufferAttribute, BufferGeometry, Group, LineSegments, Material, Mesh } from 'three';
import { GCodeLoader } from 'three/examples/jsm/loaders/GCodeLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { UnreadableModelError } from './model-error';
import { boundsOf, meshOf, readOf, type ModelPart, type ModelRead } from './model-parts';
import type { ModelWords } from './model-words';

function floats(geometry: BufferGeometry, name: string): Float32Array | null {
  const attribute = geometry.getAttribute(name) as BufferAttribute | undefined;
  if (!attribute) return null;
  return attribute.array instanceof Float32Array ? attribute.array : Float32Array.from(attribute.array as ArrayLike<number>);
}

/** A three.js geometry read by a loader, as a mesh part. */
export function meshPart(geometry: BufferGeometry, more: { tint?: number | null; matrix?: number[] | null } = {}): ModelPart {
  if (!geometry.hasAttribute('normal')) geometry.computeVertexNormals();
  const index = geometry.index ? geometry.index.array : null;
  return meshOf(floats(geometry, 'position')!, {
    normal: floats(geometry, 'normal'), color: floats(geometry, 'color'), uv: null,
    index: index instanceof Uint32Array || index instanceof Uint16Array ? index : index ? Uint32Array.from(index as ArrayLike<number>) : null,
    ...more,
  });
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
    if (position && position.length > 0) parts.push({ kind: 'layer', position, z: position[2]!, bounds: boundsOf(position) });
  }
  if (parts.length === 0) throw new UnreadableModelError('design.model.error.noToolpaths');
  return parts;
}

function objRead(text: string): ModelRead {
  const parts: ModelPart[] = [];
  new OBJLoader().parse(text).traverse((child) => {
    if ((child as Mesh).isMesh) parts.push(meshPart((child as Mesh).geometry));
  });
  if (parts.length === 0) throw new UnreadableModelError('design.model.error.noFaces');
  const library = /^\s*mtllib\s+(.+?)\s*$/m.exec(text)?.[1];
  // The colours of an OBJ file are in a file beside it, which a design's list does not tie to it.
  const notes: ModelWords[] = library ? [{ id: 'design.model.note.objColours', values: { library } }] : [];
  return readOf(parts, notes);
}

/** A text model's bytes as text: refused when they are not text (a binary file under a text type's name). */
function textOf(bytes: ArrayBuffer, what: string): string {
  const text = new TextDecoder().decode(bytes);
  if (text.includes('\u0000')) throw new UnreadableModelError('design.model.error.notText', { format: what });
  return text;
}

/** STL, OBJ, PLY and G-code, read by three's loaders for their types (none of which needs a DOM). */
export function meshFileRead(type: string, bytes: ArrayBuffer): ModelRead {
  switch (type) {
    case 'stl':
      // A binary STL says its triangle count: one that holds fewer is cut short.
      if (bytes.byteLength >= 84 && !/^\s*solid\b/.test(new TextDecoder().decode(bytes.slice(0, 80)))) {
        const count = new DataView(bytes).getUint32(80, true);
        if (84 + count * 50 > bytes.byteLength) throw new UnreadableModelError('design.model.error.stlCutShort', { said: count, held: Math.floor((bytes.byteLength - 84) / 50) });
      }
      return readOf([meshPart(new STLLoader().parse(bytes))]);
    case 'obj':
      return objRead(textOf(bytes, 'OBJ'));
    case 'ply': {
      const geometry = new PLYLoader().parse(bytes);
      // A PLY file without faces is a point cloud (a scan).
      if (!geometry.index && geometry.getAttribute('position').count % 3 !== 0) {
        const position = floats(geometry, 'position')!;
        return readOf([{ kind: 'points', position, color: floats(geometry, 'color'), bounds: boundsOf(position) }]);
      }
      return readOf([meshPart(geometry)]);
    }
    case 'gcode':
      return readOf(gcodeParts(textOf(bytes, 'G-code')));
    default:
      throw new UnreadableModelError('design.model.error.typeNotRead', { type });
  }
}
