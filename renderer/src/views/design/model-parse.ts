import {
  Box3, BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments, Mesh, MeshStandardMaterial, Points, PointsMaterial, Vector3,
  type Object3D,
} from 'three';
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { ThreeMFLoader } from 'three/examples/jsm/loaders/3MFLoader.js';
import { AMFLoader } from 'three/examples/jsm/loaders/AMFLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { isViewableModelType, isZUp, threeMfUnitScale, unitScaleOf } from './model-measure';
import { modelParts, UnreadableModelError, WORKER_MODEL_TYPES, type ModelPart } from './model-parts';
import type { ModelWorkerAnswer, ModelWorkerRequest } from './model-worker';

export { UnreadableModelError } from './model-parts';

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
  /** Where its bytes were read: in the model worker, or on the page (3MF, AMF and glTF need the page's DOM). */
  readIn: 'worker' | 'page';
}

/** The model's triangles, whether indexed or not (lines and points are no triangles). */
function triangleCount(object: Object3D): number {
  let count = 0;
  object.traverse((child) => {
    if (!(child as Mesh).isMesh) return;
    const geometry = (child as Mesh).geometry as BufferGeometry;
    const position = geometry.getAttribute('position');
    if (!position) return;
    count += (geometry.index ? geometry.index.count : position.count) / 3;
  });
  return Math.round(count);
}

/** The XML of a 3MF part, or why not. */
function parseXml(text: string, part: string): Document {
  const xml = new DOMParser().parseFromString(text, 'application/xml');
  if (xml.getElementsByTagName('parsererror').length > 0) throw new UnreadableModelError(`its part ${part} is not well-formed XML.`);
  return xml;
}

/**
 * A 3MF package checked as its specification asks before three's loader reads it (the loader logs and gives up on
 * what it cannot read): a complete zip archive whose `_rels/.rels` names a 3D model part that is there, whose model
 * names a unit 3MF knows and has a build. Returns the millimetres per unit of the model (three's loader keeps the
 * numbers as they are).
 */
function checkThreeMf(bytes: ArrayBuffer): number {
  let zip: Record<string, Uint8Array>;
  try {
    zip = unzipSync(new Uint8Array(bytes));
  } catch {
    throw new UnreadableModelError('it is not a complete 3MF package (a zip archive): it may be truncated or not a 3MF file.');
  }
  const rels = zip['_rels/.rels'];
  if (!rels) throw new UnreadableModelError('its package has no _rels/.rels naming its 3D model.');
  const decoder = new TextDecoder();
  const relationships = Array.from(parseXml(decoder.decode(rels), '_rels/.rels').getElementsByTagName('Relationship'));
  const start = relationships.find((relationship) => /\/3dmodel$/.test(relationship.getAttribute('Type') ?? ''));
  const target = start?.getAttribute('Target')?.replace(/^\//, '');
  if (!target) throw new UnreadableModelError('its _rels/.rels names no 3D model part (such as 3D/3dmodel.model).');
  const model = zip[target];
  if (!model) throw new UnreadableModelError(`its 3D model part ${target} is missing from the package.`);
  const root = parseXml(decoder.decode(model), target).documentElement;
  if (root.localName !== 'model') throw new UnreadableModelError(`its part ${target} is not a 3MF model.`);
  const unit = root.getAttribute('unit');
  const scale = threeMfUnitScale(unit);
  if (scale === null) throw new UnreadableModelError(`its unit "${unit}" is not one 3MF names.`);
  if (root.getElementsByTagName('build').length === 0) throw new UnreadableModelError('its model has no build: nothing is placed to print.');
  return scale;
}

/** A loader's own failure, in the person's words. */
function unreadable(error: unknown): UnreadableModelError {
  if (error instanceof UnreadableModelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new UnreadableModelError(`it could not be read (${message.replace(/^THREE\.\w+:\s*/, '').replace(/\.$/, '')}).`);
}

function parseGltf(bytes: ArrayBuffer): Promise<Object3D> {
  return new Promise((resolve, reject) => {
    new GLTFLoader().parse(bytes, '', (gltf) => resolve(gltf.scene), (error) => reject(unreadable(error)));
  });
}

/** What only the page can read (XML needs its DOMParser; glTF's textures its image decoding). */
async function parseOnPage(type: string, bytes: ArrayBuffer, material: MeshStandardMaterial): Promise<Object3D> {
  switch (type) {
    case 'amf': {
      const model = new AMFLoader().parse(bytes);
      model.traverse((child) => {
        const mesh = child as Mesh;
        if (mesh.isMesh && !mesh.material) mesh.material = material;
      });
      return model;
    }
    case '3mf': {
      const scale = checkThreeMf(bytes);
      const model = new ThreeMFLoader().parse(bytes);
      if (!model) throw new UnreadableModelError('it could not be read as a 3MF package.');
      model.scale.multiplyScalar(scale);
      return model;
    }
    case 'gltf':
    case 'glb':
      return parseGltf(bytes);
    default:
      throw new UnreadableModelError(`design-sync does not show .${type} files in 3D.`);
  }
}

/**
 * The parts of a file read in the model worker, its bytes transferred there and its geometry back. A window whose
 * browser has no module workers reads them on the page.
 */
function partsInWorker(type: string, bytes: ArrayBuffer, signal?: AbortSignal): Promise<{ parts: ModelPart[]; readIn: 'worker' | 'page' }> {
  if (typeof Worker === 'undefined') return Promise.resolve({ parts: modelParts(type, bytes), readIn: 'page' });
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
      if (answer.ok) resolve({ parts: answer.parts, readIn: 'worker' });
      else reject(answer.unreadable ? new UnreadableModelError(answer.message) : unreadable(new Error(answer.message)));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      reject(new UnreadableModelError(`the model reader stopped (${event.message || 'no reason given'}).`));
    };
    const request: ModelWorkerRequest = { type, bytes };
    worker.postMessage(request, [bytes]);
  });
}

function geometryOf(position: Float32Array, more: { normal?: Float32Array | null; color?: Float32Array | null; index?: Uint32Array | Uint16Array | null } = {}): BufferGeometry {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(position, 3));
  if (more.normal) geometry.setAttribute('normal', new BufferAttribute(more.normal, 3));
  if (more.color) geometry.setAttribute('color', new BufferAttribute(more.color, 3));
  if (more.index) geometry.setIndex(new BufferAttribute(more.index, 1));
  return geometry;
}

/** Meshes, points and toolpaths of the parts the worker sent back. */
function objectOfParts(parts: ModelPart[], material: MeshStandardMaterial, toolpathColour: number): { object: Object3D; layers: ToolpathLayer[] } {
  const group = new Group();
  const layers: ToolpathLayer[] = [];
  let lines: LineBasicMaterial | null = null;
  for (const part of parts) {
    if (part.kind === 'mesh') {
      const coloured = part.color !== null;
      group.add(new Mesh(geometryOf(part.position, part), coloured ? new MeshStandardMaterial({ vertexColors: true, roughness: 0.6 }) : material));
    } else if (part.kind === 'points') {
      const coloured = part.color !== null;
      group.add(new Points(geometryOf(part.position, part), new PointsMaterial({ size: 1, vertexColors: coloured, color: coloured ? 0xffffff : material.color })));
    } else {
      lines ??= new LineBasicMaterial({ color: toolpathColour });
      const segments = new LineSegments(geometryOf(part.position), lines);
      group.add(segments);
      layers.push({ object: segments, z: part.z });
    }
  }
  // Toolpaths are in the printer's numbers, Z up: turned as three's G-code loader turns them.
  if (layers.length > 0) group.rotation.x = -Math.PI / 2;
  return { object: group, layers };
}

/** Turned Y up, scaled to millimetres, stood on y = 0 and centred: the model as the print bed under it expects. */
function standOnBed(model: Object3D, type: string): { object: Object3D; size: ParsedModel['size'] } {
  const turned = new Group();
  turned.add(model);
  // Z-up numbers (printers' and CAD's): +Z becomes three's +Y, +Y goes away from the viewer (three's -Z).
  if (isZUp(type)) turned.rotation.x = -Math.PI / 2;
  turned.scale.setScalar(unitScaleOf(type));
  const placed = new Group();
  placed.add(turned);
  placed.updateMatrixWorld(true);
  const box = new Box3().setFromObject(placed, true);
  if (box.isEmpty()) throw new UnreadableModelError('it holds no geometry to show.');
  const centre = box.getCenter(new Vector3());
  // G-code's numbers are the printer's own: z = 0 is its bed, and its first layer is drawn at that layer's height.
  const bedLevel = type === 'gcode' && box.min.y >= 0 ? 0 : box.min.y;
  turned.position.set(-centre.x, -bedLevel, -centre.z);
  const size = box.getSize(new Vector3());
  return { object: placed, size: { width: size.x, depth: size.z, height: box.max.y - bedLevel } };
}

/**
 * A model file's bytes made into something to show, in millimetres and right way up: STL, OBJ, PLY and G-code read
 * in the model worker (the bytes are handed over: do not use them after), 3MF, AMF and glTF on the page. Throws
 * UnreadableModelError, with why in words, for a file that cannot be read.
 */
export async function parseModel(type: string, bytes: ArrayBuffer, material: MeshStandardMaterial, toolpathColour: number, signal?: AbortSignal): Promise<ParsedModel> {
  const lower = type.toLowerCase();
  if (!isViewableModelType(lower)) throw new UnreadableModelError(`design-sync does not show .${type} files in 3D.`);
  if (bytes.byteLength === 0) throw new UnreadableModelError('it is empty.');
  try {
    if (WORKER_MODEL_TYPES.includes(lower)) {
      const { parts, readIn } = await partsInWorker(lower, bytes, signal);
      const { object, layers } = objectOfParts(parts, material, toolpathColour);
      return { ...standOnBed(object, lower), triangles: triangleCount(object), layers, readIn };
    }
    const model = await parseOnPage(lower, bytes, material);
    return { ...standOnBed(model, lower), triangles: triangleCount(model), layers: [], readIn: 'page' };
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    throw unreadable(error);
  }
}
