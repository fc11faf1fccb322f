import {
  Box3, BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments, Mesh, MeshStandardMaterial, Points, PointsMaterial, Sphere, SRGBColorSpace,
  Texture, Vector3, type Material, type Object3D,
} from 'three';
import { isViewableModelType, isZUp, unitScaleOf } from './model-measure';
import { UnreadableModelError, type Bounds, type ModelPart, type ModelRead } from './model-parts';
import type { ModelWorkerAnswer, ModelWorkerRequest } from './model-worker';
import type { ModelWords } from './model-words';

export { UnreadableModelError } from './model-parts';
export type { ModelPart, ModelRead } from './model-parts';

/** One layer of a G-code file's toolpaths: what it draws, and the height it is printed at (mm). */
export interface ToolpathLayer {
  object: Object3D;
  z: number;
}

export interface ParsedModel {
  /**
   * The model in millimetres, Y up (three's way), standing on y = 0 and centred over the origin: what the print bed
   * under it expects.
   */
  object: Object3D;
  /** Its size in millimetres: width (X), depth (along the bed, three's Z) and height (three's Y). */
  size: { width: number; depth: number; height: number };
  triangles: number;
  /** A G-code file's layers, bottom first; empty for a mesh. */
  layers: ToolpathLayer[];
  /** Where its bytes were read: always the model worker (kept for callers that report it). */
  readIn: 'worker';
  /** What the file holds that the view does not show, one sentence each (beam thickness, extensions…). */
  notes: ModelWords[];
}

/** A loader's own failure, in the person's words. */
function unreadable(error: unknown): UnreadableModelError {
  if (error instanceof UnreadableModelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // The loader's own words (English, as three.js says them) for what it could not read.
  return new UnreadableModelError('design.model.error.loaderFailed', { why: message.replace(/^THREE\.\w+:\s*/, '').replace(/\.$/, '') });
}

/**
 * A model file's bytes read in the model worker (transferred there: do not use them after) into parts as typed
 * arrays, with their bounds, notes and decoded textures. The reusable step for anything that draws a model.
 * `signal` stops the reading and the worker.
 */
export function readModelInWorker(type: string, bytes: ArrayBuffer, signal?: AbortSignal): Promise<ModelRead> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const worker = new Worker(new URL('./model-worker.ts', import.meta.url), { type: 'module', name: 'design-sync model reader' });
    // A view closed while its file is read stops the reading: a large file is not read for nothing.
    const stop = () => {
      worker.terminate();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<ModelWorkerAnswer>) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      const answer = event.data;
      if (answer.ok) resolve(answer.read);
      else reject(answer.words ? new UnreadableModelError(answer.words.id, answer.words.values) : unreadable(new Error(answer.message)));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      reject(event.message
        ? new UnreadableModelError('design.model.error.readerStopped', { why: event.message })
        : new UnreadableModelError('design.model.error.readerStoppedUnknown'));
    };
    const request: ModelWorkerRequest = { type, bytes };
    worker.postMessage(request, [bytes]);
  });
}

function boxOf(bounds: Bounds): Box3 {
  return new Box3(new Vector3(bounds[0], bounds[1], bounds[2]), new Vector3(bounds[3], bounds[4], bounds[5]));
}

/** A geometry of a part's arrays, its bounds given (three would otherwise walk every vertex on the page to find them). */
function geometryOf(part: ModelPart): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(part.position, 3));
  if (part.kind === 'mesh' || part.kind === 'points') {
    if (part.color) geometry.setAttribute('color', new BufferAttribute(part.color, 3));
  }
  if (part.kind === 'mesh') {
    if (part.normal) geometry.setAttribute('normal', new BufferAttribute(part.normal, 3));
    if (part.uv) geometry.setAttribute('uv', new BufferAttribute(part.uv, 2));
    if (part.index) geometry.setIndex(new BufferAttribute(part.index, 1));
  }
  geometry.boundingBox = boxOf(part.bounds);
  geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new Sphere());
  return geometry;
}

function triangles(part: ModelPart): number {
  if (part.kind !== 'mesh') return 0;
  return Math.round(part.index ? part.index.length / 3 : part.position.length / 9);
}

/** Meshes, points, lines and toolpaths of the parts the worker sent back: geometry and materials shared where they can be. */
function objectOfParts(read: ModelRead, material: MeshStandardMaterial, toolpathColour: number): { object: Object3D; layers: ToolpathLayer[] } {
  const group = new Group();
  const layers: ToolpathLayer[] = [];
  /** Geometries by their position array's memory: one placed twice (or a piece of one) is uploaded once. */
  const geometries = new Map<ArrayBufferLike, Map<number, BufferGeometry>>();
  const materials = new Map<string, Material>();
  const textures = read.textures.map((image) => {
    const texture = new Texture(image as unknown as HTMLImageElement);
    // Flipped (3MF) or not (glTF) as the worker decoded it: an ImageBitmap is never flipped again by WebGL.
    texture.flipY = false;
    texture.colorSpace = SRGBColorSpace;
    texture.needsUpdate = true;
    return texture;
  });
  const shared = <T extends Material>(key: string, make: () => T): T => {
    let made = materials.get(key) as T | undefined;
    if (!made) materials.set(key, made = make());
    return made;
  };
  const geometry = (part: ModelPart) => {
    let inBuffer = geometries.get(part.position.buffer);
    if (!inBuffer) geometries.set(part.position.buffer, inBuffer = new Map());
    let made = inBuffer.get(part.position.byteOffset);
    if (!made) inBuffer.set(part.position.byteOffset, made = geometryOf(part));
    return made;
  };
  for (const part of read.parts) {
    let object: Object3D;
    if (part.kind === 'mesh') {
      const texture = part.texture !== null ? textures[part.texture] : undefined;
      const surface = texture && part.uv
        ? shared(`texture:${part.texture}:${part.tint ?? ''}`, () => new MeshStandardMaterial({ map: texture, color: part.tint ?? 0xffffff, roughness: 0.7 }))
        : part.color ? shared('vertex', () => new MeshStandardMaterial({ vertexColors: true, roughness: 0.6 }))
          : part.tint !== null ? shared(`tint:${part.tint}`, () => new MeshStandardMaterial({ color: part.tint!, roughness: 0.6, metalness: 0.1 }))
            : material;
      object = new Mesh(geometry(part), surface);
    } else if (part.kind === 'points') {
      const coloured = part.color !== null;
      object = new Points(geometry(part), new PointsMaterial({ size: 1, vertexColors: coloured, color: coloured ? 0xffffff : material.color }));
    } else if (part.kind === 'lines') {
      object = new LineSegments(geometry(part), shared('lines', () => new LineBasicMaterial({ color: material.color })));
    } else {
      object = new LineSegments(geometry(part), shared('toolpaths', () => new LineBasicMaterial({ color: toolpathColour })));
      layers.push({ object, z: part.z });
    }
    if ('matrix' in part && part.matrix) {
      // As the file places it, shear and mirroring included (a matrix, not position, turn and scale).
      object.matrixAutoUpdate = false;
      object.matrix.fromArray(part.matrix);
    }
    group.add(object);
  }
  return { object: group, layers };
}

/**
 * Turned Y up, scaled to millimetres, stood on y = 0 and centred: the model as the print bed under it expects. Its
 * size comes from the bounds the worker measured, turned as the model is (quarter turns keep a box a box).
 */
function standOnBed(model: Object3D, type: string, bounds: Bounds): { object: Object3D; size: ParsedModel['size'] } {
  const turned = new Group();
  turned.add(model);
  // Z-up numbers (printers' and CAD's; G-code's): +Z becomes three's +Y, +Y goes away from the viewer (three's -Z).
  if (isZUp(type) || type === 'gcode') turned.rotation.x = -Math.PI / 2;
  turned.scale.setScalar(unitScaleOf(type));
  turned.updateMatrix();
  const box = boxOf(bounds).applyMatrix4(turned.matrix);
  if (box.isEmpty()) throw new UnreadableModelError('design.model.error.noGeometry');
  const centre = box.getCenter(new Vector3());
  // G-code's numbers are the printer's own: z = 0 is its bed, and its first layer is drawn at that layer's height.
  const bedLevel = type === 'gcode' && box.min.y >= 0 ? 0 : box.min.y;
  turned.position.set(-centre.x, -bedLevel, -centre.z);
  const placed = new Group();
  placed.add(turned);
  placed.updateMatrixWorld(true);
  const size = box.getSize(new Vector3());
  return { object: placed, size: { width: size.x, depth: size.z, height: box.max.y - bedLevel } };
}

/** What was read in the worker made into something to show, in millimetres and right way up (cheap: no pass over vertices). */
export function modelOfRead(type: string, read: ModelRead, material: MeshStandardMaterial, toolpathColour: number): ParsedModel {
  const lower = type.toLowerCase();
  const { object, layers } = objectOfParts(read, material, toolpathColour);
  return {
    ...standOnBed(object, lower, read.bounds),
    triangles: read.parts.reduce((sum, part) => sum + triangles(part), 0),
    layers, readIn: 'worker', notes: read.notes,
  };
}

/**
 * A model file's bytes made into something to show, in millimetres and right way up: every type is read in the model
 * worker (the bytes are handed over: do not use them after), and only the scene is built here. Throws
 * UnreadableModelError, with why in words, for a file that cannot be read.
 */
export async function parseModel(type: string, bytes: ArrayBuffer, material: MeshStandardMaterial, toolpathColour: number, signal?: AbortSignal): Promise<ParsedModel> {
  const lower = type.toLowerCase();
  if (!isViewableModelType(lower)) throw new UnreadableModelError('design.model.error.typeNotShown', { type });
  if (bytes.byteLength === 0) throw new UnreadableModelError('design.model.error.empty');
  try {
    return modelOfRead(lower, await readModelInWorker(lower, bytes, signal), material, toolpathColour);
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    throw unreadable(error);
  }
}
