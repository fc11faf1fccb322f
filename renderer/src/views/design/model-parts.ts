import { UnreadableModelError } from './model-error';
import type { ModelWords } from './model-words';

export { UnreadableModelError } from './model-error';

/** An axis-aligned box: min x, y, z, then max x, y, z. */
export type Bounds = [number, number, number, number, number, number];

/**
 * A model's geometry as plain typed arrays: what the model worker sends back to the page (its buffers transferred,
 * not copied), and what the page makes meshes, lines and toolpaths of without a pass over the vertices (each part
 * brings its bounds). Every type is read this way, off the page's main thread.
 */
export type ModelPart =
  | {
    kind: 'mesh'; position: Float32Array; normal: Float32Array | null;
    /** Colours per vertex, linear RGB. */
    color: Float32Array | null;
    index: Uint32Array | Uint16Array | null;
    /** Texture coordinates, with `texture` the index of its image in ModelRead.textures. */
    uv: Float32Array | null; texture: number | null;
    /** One colour for the whole part, 0xRRGGBB in sRGB; null for the view's own. */
    tint: number | null;
    /** Where the part is placed (three's Matrix4 elements, column-major); null where it is. */
    matrix: number[] | null;
    bounds: Bounds;
    /**
     * Flat facets whose normals are left to the GPU (worked out for each pixel from the positions; see facetsOnly):
     * no normal array is sent, uploaded or read for each vertex.
     */
    flat?: boolean;
  }
  | { kind: 'points'; position: Float32Array; color: Float32Array | null; bounds: Bounds }
  /** Lines between points (a 3MF beam lattice's beams), drawn thin. */
  | { kind: 'lines'; position: Float32Array; matrix: number[] | null; bounds: Bounds }
  /** One layer of a G-code file's extruded toolpaths, as line segments in the printer's numbers (Z up), at height z. */
  | { kind: 'layer'; position: Float32Array; z: number; bounds: Bounds };

/** What the worker read of a file: its parts, their textures' images, what it could not show, and its bounds. */
export interface ModelRead {
  parts: ModelPart[];
  /** Decoded images, transferred to the page as they are (no URL: the CSP allows no blob: or data: image). */
  textures: ImageBitmap[];
  /** What the file holds that the view does not show, one sentence each. */
  notes: ModelWords[];
  /** The bounds of all parts as placed (their matrices applied), in the file's own numbers. */
  bounds: Bounds;
}

/** The bounds of positions (x, y, z triples). */
export function boundsOf(position: ArrayLike<number>): Bounds {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i + 2 < position.length; i += 3) {
    const x = position[i]!, y = position[i + 1]!, z = position[i + 2]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return [minX, minY, minZ, maxX, maxY, maxZ];
}

/** Bounds moved by a matrix (column-major): the box around its eight moved corners. */
export function placedBounds(bounds: Bounds, matrix: number[] | null): Bounds {
  if (!matrix) return bounds;
  const corners: number[] = [];
  for (const x of [bounds[0], bounds[3]]) {
    for (const y of [bounds[1], bounds[4]]) {
      for (const z of [bounds[2], bounds[5]]) {
        const m = matrix;
        corners.push(m[0]! * x + m[4]! * y + m[8]! * z + m[12]!, m[1]! * x + m[5]! * y + m[9]! * z + m[13]!, m[2]! * x + m[6]! * y + m[10]! * z + m[14]!);
      }
    }
  }
  return boundsOf(corners);
}

/** The bounds of all parts as placed; refused when there is nothing to show. */
export function readOf(parts: ModelPart[], notes: ModelWords[] = [], textures: ImageBitmap[] = []): ModelRead {
  const all: Bounds = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const part of parts) {
    const placed = placedBounds(part.bounds, 'matrix' in part ? part.matrix : null);
    for (let axis = 0; axis < 3; axis++) {
      all[axis] = Math.min(all[axis]!, placed[axis]!);
      all[axis + 3] = Math.max(all[axis + 3]!, placed[axis + 3]!);
    }
  }
  if (!all.every(Number.isFinite)) throw new UnreadableModelError('design.model.error.noGeometry');
  return { parts, textures, notes, bounds: all };
}

/** A mesh part of positions (and what else there is), its bounds measured. */
export function meshOf(position: Float32Array, more: Partial<Omit<Extract<ModelPart, { kind: 'mesh' }>, 'kind' | 'position' | 'bounds'>> = {}): ModelPart {
  return {
    kind: 'mesh', position, normal: null, color: null, index: null, uv: null, texture: null, tint: null, matrix: null, ...more,
    bounds: boundsOf(position),
  };
}

/** Flat normals of triangles given as positions (three per triangle, not indexed): a printed part's facets. */
export function flatNormals(position: Float32Array): Float32Array {
  const normal = new Float32Array(position.length);
  for (let i = 0; i + 8 < position.length; i += 9) {
    const ax = position[i + 3]! - position[i]!, ay = position[i + 4]! - position[i + 1]!, az = position[i + 5]! - position[i + 2]!;
    const bx = position[i + 6]! - position[i]!, by = position[i + 7]! - position[i + 1]!, bz = position[i + 8]! - position[i + 2]!;
    let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
    const length = Math.hypot(nx, ny, nz) || 1;
    nx /= length;
    ny /= length;
    nz /= length;
    for (let v = 0; v < 9; v += 3) {
      normal[i + v] = nx;
      normal[i + v + 1] = ny;
      normal[i + v + 2] = nz;
    }
  }
  return normal;
}

/** Triangles per piece of a large mesh: a piece's arrays (about 9 MB) go to the GPU within one frame of the page. */
export const TRIANGLES_PER_PIECE = 131_072;

/**
 * Large meshes (not indexed) cut into pieces of TRIANGLES_PER_PIECE, each a view of the same arrays (nothing copied)
 * with bounds of its own: the page draws them a few at a time, so no single frame uploads a whole 200 MB model.
 */
export function inPieces(read: ModelRead): ModelRead {
  const parts: ModelPart[] = [];
  for (const part of read.parts) {
    const count = part.position.length / 9;
    if (part.kind !== 'mesh' || part.index || count <= TRIANGLES_PER_PIECE) {
      parts.push(part);
      continue;
    }
    for (let first = 0; first < count; first += TRIANGLES_PER_PIECE) {
      const end = Math.min(count, first + TRIANGLES_PER_PIECE);
      const slice = <T extends Float32Array | null>(array: T, perVertex: number) => (array ? array.subarray(first * 3 * perVertex, end * 3 * perVertex) : null) as T;
      const position = slice(part.position, 3);
      parts.push({ ...part, position, normal: slice(part.normal, 3), color: slice(part.color, 3), uv: slice(part.uv, 2), bounds: boundsOf(position) });
    }
  }
  return { ...read, parts };
}

/**
 * A mesh file's parts (of STL: one normal a facet, as the file gives them) without their normals, drawn flat: the GPU
 * works a facet's normal out of its positions for each pixel, as it would interpolate one, and a third of what goes to
 * the page and the GPU (the normals: 72 MB of a model of two million triangles) is not sent.
 */
export function facetsOnly(read: ModelRead): ModelRead {
  return {
    ...read,
    parts: read.parts.map((part) => (part.kind === 'mesh' && !part.index ? { ...part, normal: null, flat: true } : part)),
  };
}

/** The buffers of what was read, to transfer (not copy) from the worker to the page. */
export function readTransfers(read: ModelRead): Transferable[] {
  const buffers = new Set<ArrayBuffer>();
  for (const part of read.parts) {
    const arrays = [part.position, 'color' in part ? part.color : null, ...(part.kind === 'mesh' ? [part.normal, part.index, part.uv] : [])];
    for (const array of arrays) {
      if (array && array.buffer instanceof ArrayBuffer) buffers.add(array.buffer);
    }
  }
  return [...buffers, ...read.textures];
}
