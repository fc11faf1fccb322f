/**
 * Drawing a model's picture, in the thumbnail worker (thumbnail-worker.ts): never on the page's thread. One
 * OffscreenCanvas with its WebGL context, scene and compiled shaders serves every picture the worker draws.
 */
import { AmbientLight, Box3, Color, DirectionalLight, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, type Material, type Object3D } from 'three';
import { modelOfRead } from '../views/design/model-parse';
import { UnreadableModelError } from '../views/design/model-parts';
import { isViewableModelType } from '../views/design/model-measure';
import { readModel } from '../views/design/model-read';
import { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';

/** A light grey that sits on both themes' cards (the picture is kept once, whatever the theme). */
const BACKGROUND = 0xe4e8ee;
const TOOLPATH_COLOUR = 0x2f6fd6;

/**
 * The material models are drawn with, one for every picture: disposing it would let its compiled shaders go with it,
 * to be compiled again for the next picture.
 */
const MODEL_MATERIAL = new MeshStandardMaterial({ color: 0x7aa7ff, roughness: 0.6, metalness: 0.1 });

/** Lets a drawn model's geometry, its own materials and their textures go (not the shared MODEL_MATERIAL). */
function dispose(object: Object3D): void {
  object.traverse((child) => {
    const mesh = child as Mesh;
    mesh.geometry?.dispose();
    const materials = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const material of materials as Material[]) {
      if (material === MODEL_MATERIAL) continue;
      (material as Material & { map?: { dispose(): void } | null }).map?.dispose();
      material.dispose();
    }
  });
}

/**
 * How long a picture's steps took in the worker, each as its start (the worker's performance.now()) and duration in
 * ms: what the page records as performance measures (thumbnail-drawer.ts).
 */
export interface PhaseTimes {
  fetch?: [number, number];
  /** Reading the file into parts and making them a scene. */
  read?: [number, number];
  /** Drawing it and encoding the PNG (the GPU's work is waited for by the encoding). */
  draw?: [number, number];
}

/** No WebGL context can be made here (none in workers, or none at all): no picture can be drawn, whatever the model. */
export class NoWebGLError extends Error {
  override name = 'NoWebGLError';
}

interface Drawer {
  canvas: OffscreenCanvas;
  renderer: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
}

/** The worker's one canvas and renderer, made for its first picture (made anew after its context was lost). */
let drawer: Drawer | null = null;

function makeDrawer(): Drawer {
  const canvas = new OffscreenCanvas(THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT);
  // The drawing stays on the canvas until it is encoded (convertToBlob reads it after the render's task).
  let renderer: WebGLRenderer;
  try {
    renderer = new WebGLRenderer({ canvas, antialias: true, alpha: false, preserveDrawingBuffer: true });
  } catch (error) {
    throw new NoWebGLError(`WebGL cannot be used in the thumbnail worker: ${error instanceof Error ? error.message : String(error)}`);
  }
  renderer.setPixelRatio(1);
  renderer.setSize(THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT, false);
  const scene = new Scene();
  scene.background = new Color(BACKGROUND);
  scene.add(new AmbientLight(0xffffff, 0.7));
  const key = new DirectionalLight(0xffffff, 1.3);
  key.position.set(1, 2, 3);
  scene.add(key);
  const fill = new DirectionalLight(0xffffff, 0.4);
  fill.position.set(-2, 1, -1);
  scene.add(fill);
  // A context the system takes back (too many at once, a GPU reset) is made anew for the next picture.
  canvas.addEventListener('webglcontextlost', () => {
    if (drawer?.canvas === canvas) drawer = null;
  });
  return { canvas, renderer, scene, camera: new PerspectiveCamera(35, THUMBNAIL_WIDTH / THUMBNAIL_HEIGHT, 0.01, 100_000) };
}

/**
 * A picture of a model file's bytes (handed over: not used after), THUMBNAIL_WIDTH × THUMBNAIL_HEIGHT, as a PNG: read
 * as the 3D preview reads it (right way up, standing on y = 0), seen from the front right and a little above, with a
 * margin that survives a card's cropping to its own shape, on a neutral background. Throws UnreadableModelError, with
 * why in words, for a file that cannot be read.
 */
export async function renderThumbnail(type: string, bytes: ArrayBuffer, took?: PhaseTimes): Promise<Blob> {
  const lower = type.toLowerCase();
  if (!isViewableModelType(lower)) throw new UnreadableModelError('design.model.error.typeNotShown', { type });
  let read;
  let began = performance.now();
  try {
    read = await readModel(lower, bytes);
  } catch (error) {
    if (error instanceof UnreadableModelError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // The loader's own words (English, as three.js says them) for what it could not read.
    throw new UnreadableModelError('design.model.error.loaderFailed', { why: message.replace(/^THREE\.\w+:\s*/, '').replace(/\.$/, '') });
  }
  const model = modelOfRead(lower, read, MODEL_MATERIAL, TOOLPATH_COLOUR).object;
  if (took) took.read = [began, performance.now() - began];
  try {
    drawer ??= makeDrawer();
    const { canvas, renderer, scene, camera } = drawer;
    scene.add(model);
    try {
      const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere());
      const radius = sphere.radius || 1;
      const distance = radius / Math.sin((camera.fov * Math.PI) / 360);
      camera.position.copy(sphere.center).add(new Vector3(1, 0.75, 1.2).normalize().multiplyScalar(distance * 1.3));
      camera.near = distance / 100;
      camera.far = distance * 100;
      camera.lookAt(sphere.center);
      camera.updateProjectionMatrix();
      began = performance.now();
      renderer.render(scene, camera);
      if (renderer.getContext().isContextLost()) throw new Error('The picture could not be drawn: the WebGL context was lost.');
      const picture = await canvas.convertToBlob({ type: 'image/png' });
      if (took) took.draw = [began, performance.now() - began];
      return picture;
    } finally {
      scene.remove(model);
    }
  } finally {
    dispose(model);
  }
}
