import {
  Box3, BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments, Mesh, MeshStandardMaterial, type MeshPhongMaterial, Points, PointsMaterial, Sphere, SRGBColorSpace,
  Texture, Vector3, type Material, type Object3D,
} from 'three';
import { markModelStep } from './model-marks';
import { isViewableModelType, isZUp, unitScaleOf } from './model-measure';
import { UnreadableModelError, unreadable } from './model-error';
import type { Bounds, ModelPart, ModelRead } from './model-parts';
import { ModelFetchError } from './model-fetch';
import type { ModelWords } from './model-words';

export { UnreadableModelError } from './model-error';
export type { ModelPart, ModelRead } from './model-parts';

/** The material of a mesh that brings no colour of its own: the view's (Phong) or a thumbnail's. */
export type ModelMaterial = MeshStandardMaterial | MeshPhongMaterial;

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
function objectOfParts(read: ModelRead, material: ModelMaterial, toolpathColour: number): { object: Object3D; layers: ToolpathLayer[] } {
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
      // Flat facets without normals: their normals are worked out for each pixel (flatShading).
      const flatShading = part.flat === true;
      const flat = flatShading ? ':flat' : '';
      const surface = texture && part.uv
        ? shared(`texture:${part.texture}:${part.tint ?? ''}${flat}`, () => new MeshStandardMaterial({ map: texture, color: part.tint ?? 0xffffff, roughness: 0.7, flatShading }))
        : part.color ? shared(`vertex${flat}`, () => new MeshStandardMaterial({ vertexColors: true, roughness: 0.6, flatShading }))
          : part.tint !== null ? shared(`tint:${part.tint}${flat}`, () => new MeshStandardMaterial({ color: part.tint!, roughness: 0.6, metalness: 0.1, flatShading }))
            : flatShading ? shared('flat', () => Object.assign(material.clone(), { flatShading: true })) : material;
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
export function modelOfRead(type: string, read: ModelRead, material: ModelMaterial, toolpathColour: number): ParsedModel {
  const lower = type.toLowerCase();
  const { object, layers } = objectOfParts(read, material, toolpathColour);
  return {
    ...standOnBed(object, lower, read.bounds),
    triangles: read.parts.reduce((sum, part) => sum + triangles(part), 0),
    layers, readIn: 'worker', notes: read.notes,
  };
}

/**
 * A model file made into something to show, in millimetres and right way up: `read` is its reading in the model worker
 * (model-read.ts), and only the scene is built here. Throws UnreadableModelError, with why in
 * words, for a file that cannot be read; the host's own answer (ModelFetchError) and the view's closing (the signal's
 * reason) as they are.
 */
export async function parseModel(type: string, read: Promise<ModelRead>, material: ModelMaterial, toolpathColour: number, signal?: AbortSignal): Promise<ParsedModel> {
  const lower = type.toLowerCase();
  if (!isViewableModelType(lower)) throw new UnreadableModelError('design.model.error.typeNotShown', { type });
  try {
    const parts = await read;
    markModelStep('read');
    return modelOfRead(lower, parts, material, toolpathColour);
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    if (error instanceof ModelFetchError) throw error;
    throw unreadable(error);
  }
}
