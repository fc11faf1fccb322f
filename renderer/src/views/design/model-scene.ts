import {
  AmbientLight, Box3, BufferGeometry, Color, DirectionalLight, GridHelper, Mesh, MeshPhongMaterial, type MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, WebGLRenderTarget,
  type Material, type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { ElementProxy } from './model-element-proxy';
import { softwareRendered, whenGpuDone } from './model-gpu';
import type { CanvasBox } from './model-input';
import { markModelStep } from './model-marks';
import { bedGrid, clampLayer } from './model-measure';
import { TRIANGLES_PER_PIECE } from './model-parts';
import { parseModel, type ModelRead, type ParsedModel } from './model-parse';
import type { ModelWords } from './model-words';

export { UnreadableModelError } from './model-parse';

export interface ModelScene {
  triangles: number;
  /** Its size in millimetres: width, depth (along the bed) and height. */
  size: ParsedModel['size'];
  /** A G-code file's layers (bottom first, with their height in mm); empty for a mesh. */
  layers: { z: number }[];
  /** What the file holds that the view does not show, one sentence each. */
  notes: ModelWords[];
  /** Settles once the whole model has been drawn on the canvas (a large one goes to the GPU over a few frames). */
  drawn: Promise<void>;
  /** Shows a G-code file's layers 1 to `layer` (all of them by default). */
  showLayersUpTo(layer: number): void;
  fit(): void;
  /** Starts drawing, once the page shows the model's facts (nothing is drawn before). */
  show(): void;
  /** The canvas moved or resized on the page (or the display's pixel ratio changed): drawn again at that size. */
  resize(box: CanvasBox): void;
  dispose(): void;
}

/** The vertices an object draws itself (a mesh's, lines', points'), 0 for a group or a light. */
function vertexCount(object: Object3D): number {
  const geometry = (object as Mesh).geometry as Mesh['geometry'] | undefined;
  if (!geometry) return 0;
  return geometry.index ? geometry.index.count : (geometry.getAttribute('position')?.count ?? 0);
}

function verticesOf(object: Object3D): number {
  let count = 0;
  object.traverse((child) => {
    count += vertexCount(child);
  });
  return count;
}

/** A model of more vertices than this goes to the GPU over several frames (see showModel). */
const LARGE_VERTICES = 2 * TRIANGLES_PER_PIECE * 3;
/**
 * A file larger than this is drawn without multisampling on a software renderer: about LARGE_VERTICES of a binary
 * STL (50 bytes a triangle).
 */
const LARGE_FILE_BYTES = (LARGE_VERTICES / 3) * 50;
/** Vertices that go to the GPU in one frame: two pieces' worth (about 19 MB of positions and normals). */
const VERTICES_PER_BATCH = 2 * TRIANGLES_PER_PIECE * 3;

function disposeObject(object: Object3D): void {
  object.traverse((child) => {
    const mesh = child as Mesh;
    mesh.geometry?.dispose();
    const materials = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const material of materials as Material[]) {
      const map = (material as MeshStandardMaterial).map;
      if (map) {
        (map.image as ImageBitmap | undefined)?.close?.();
        map.dispose();
      }
      material.dispose();
    }
  });
}

/**
 * What the page shows beside the drawing of a model read, made without drawing it (where it cannot be drawn). Throws
 * UnreadableModelError as showModel does.
 */
export async function factsOfRead(type: string, read: ModelRead): Promise<Pick<ModelScene, 'triangles' | 'size' | 'layers' | 'notes'>> {
  const material = new MeshPhongMaterial();
  try {
    const parsed = await parseModel(type, Promise.resolve(read), material, 0);
    disposeObject(parsed.object);
    return { triangles: parsed.triangles, size: parsed.size, layers: parsed.layers.map((layer) => ({ z: layer.z })), notes: parsed.notes };
  } finally {
    material.dispose();
  }
}

/** No WebGL context can be made on the view's canvas (WebGL off, or not offered to workers here). */
export class NoWebGLError extends Error {
  override name = 'NoWebGLError';
}

/**
 * The renderer of the view's canvas (handed to the model worker by the page), made while the file is fetched: making
 * its WebGL context takes tens of ms. Multisampling multiplies a software renderer's work on every pixel of a large
 * model (seconds more for millions of triangles); a GPU does it at no cost worth saving. `fileBytes`: the file's size,
 * when known. Throws NoWebGLError where no WebGL context can be made.
 */
export function makeRenderer(canvas: OffscreenCanvas, fileBytes: number | null): WebGLRenderer {
  try {
    return new WebGLRenderer({ canvas, antialias: !((fileBytes ?? 0) > LARGE_FILE_BYTES && softwareRendered()) });
  } catch (error) {
    throw new NoWebGLError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * An interactive view of a 3D model, drawn in the model worker on the view's canvas (an OffscreenCanvas the page
 * handed over; no WebGL call runs on the page's thread): right way up, in millimetres, standing on a print bed's grid
 * (10 mm cells; see bedGrid); orbit with the mouse or touch, zoom with the wheel, fit to view, as the page forwards
 * them to `element` (model-input.ts). Throws UnreadableModelError for a file that cannot be read, before anything is
 * drawn. `read` is the file's reading (model-read.ts), `box` the canvas's place and size on the page; `signal` tells
 * that the view was closed.
 */
export async function showModel(renderer: WebGLRenderer, element: ElementProxy, box: CanvasBox, type: string, read: Promise<ModelRead>, dark: boolean, signal?: AbortSignal): Promise<ModelScene> {
  // Phong, as three.js's own STL example: cheaper for each pixel than a physically based material, which counts on a
  // software renderer shading every pixel of a model of millions of triangles on the CPU.
  const material = new MeshPhongMaterial({ color: 0x7aa7ff, specular: 0x222222, shininess: 40 });
  let parsed: ParsedModel;
  try {
    parsed = await parseModel(type, read, material, dark ? 0x8fb8ff : 0x2f6fd6, signal);
  } catch (error) {
    material.dispose();
    renderer.dispose();
    throw error;
  }
  const model = parsed.object;
  const vertices = verticesOf(model);
  const largeOnSoftware = vertices > LARGE_VERTICES && softwareRendered();
  const scene = new Scene();
  scene.background = new Color(dark ? 0x1d2127 : 0xf0f2f5);
  const ambient = new AmbientLight(0xffffff, 0.6);
  const sun = new DirectionalLight(0xffffff, 1.2);
  sun.position.set(1, 2, 3);
  scene.add(ambient, sun);
  const grid = bedGrid(parsed.size.width, parsed.size.depth);
  const bed = new GridHelper(grid.size, grid.divisions, dark ? 0x6b7380 : 0x8a94a3, dark ? 0x3a414b : 0xc8ced6);
  scene.add(bed);
  scene.add(model);

  const camera = new PerspectiveCamera(45, 1, 0.01, 100_000);
  const controls = new OrbitControls(camera, element as unknown as HTMLElement);
  controls.enableDamping = true;
  // Drawn on demand, not every frame: a still model costs nothing, and a model of millions of triangles is not drawn
  // sixty times a second for no change. Turning (with its easing out) asks for frames until the camera rests.
  let frame = 0;
  // On a GPU, a large model's parts (pieces of TRIANGLES_PER_PIECE, a G-code file's layers…) go up a batch of about
  // VERTICES_PER_BATCH a frame, each batch drawn alone into a 1×1 target (which uploads its arrays at almost no drawing
  // cost), and the model is drawn on the canvas once all are there: no frame uploads a whole 200 MB model, and a turn
  // asked meanwhile is drawn between them. A software renderer rasterizes on the CPU: there each extra frame costs the
  // worker's and the GPU process's work again, and the whole model goes up in the frame that draws it (as three.js's
  // own pages do).
  const WAITING = 2, WARMING = 3;
  const batches: Object3D[][] = [];
  if (vertices > LARGE_VERTICES && !largeOnSoftware) {
    let batch: Object3D[] = [];
    let inBatch = 0;
    model.traverse((child) => {
      const count = vertexCount(child);
      if (count === 0) return;
      child.layers.set(WAITING);
      if (inBatch > 0 && inBatch + count > VERTICES_PER_BATCH) {
        batches.push(batch);
        batch = [];
        inBatch = 0;
      }
      batch.push(child);
      inBatch += count;
    });
    if (batch.length > 0) batches.push(batch);
    batches.reverse();
    ambient.layers.enable(WARMING);
    sun.layers.enable(WARMING);
  }
  const warmCamera = new PerspectiveCamera();
  const warmTarget = batches.length > 0 ? new WebGLRenderTarget(1, 1) : null;
  const warmNext = () => {
    const batch = batches.pop()!;
    // Drawn with nothing in their draw range: three uploads their arrays and draws no vertex (a software renderer
    // would otherwise shade every vertex twice, here and in the model's drawing).
    const ranges = new Map<BufferGeometry, number>();
    for (const object of batch) {
      object.layers.set(WARMING);
      object.frustumCulled = false;
      const geometry = (object as Mesh).geometry;
      if (!ranges.has(geometry)) ranges.set(geometry, geometry.drawRange.count);
      geometry.drawRange.count = 0;
    }
    warmCamera.copy(camera);
    warmCamera.layers.set(WARMING);
    renderer.setRenderTarget(warmTarget);
    renderer.render(scene, warmCamera);
    renderer.setRenderTarget(null);
    for (const [geometry, count] of ranges) geometry.drawRange.count = count;
    for (const object of batch) {
      object.frustumCulled = true;
      object.layers.set(WAITING);
    }
    if (batches.length === 0) camera.layers.enable(WAITING);
  };
  let markDrawn = () => {};
  const drawn = new Promise<void>((resolve) => {
    markDrawn = () => {
      markDrawn = () => {};
      markModelStep('drawn');
      resolve();
    };
  });
  // A frame is drawn only once the GPU has done the one before (a fence, polled between tasks): asking a software
  // renderer for another drawing of millions of triangles while it is still at the last one holds the worker's thread
  // (and the forwarded turns) until it is done. "Drawn" is the first whole drawing of the model done, not asked for.
  const stopped = new AbortController();
  let drawing = false;
  let asked = false;
  let bedDrawn = false;
  let wholeAsked = false;
  const context = renderer.getContext();
  const draw = () => {
    frame = 0;
    if (drawing) {
      asked = true;
      return;
    }
    if (batches.length > 0) warmNext();
    const whole = batches.length === 0;
    const moving = controls.update();
    // While the parts go up, the canvas keeps its first drawing (the bed) unless the camera moves: drawing it again
    // each frame would only hold the parts back.
    if (whole && !wholeAsked) {
      wholeAsked = true;
      markModelStep('drawing');
    }
    if (whole || moving || !bedDrawn) renderer.render(scene, camera);
    bedDrawn = true;
    drawing = true;
    asked = moving || batches.length > 0;
    void whenGpuDone(context, stopped.signal).then(() => {
      drawing = false;
      // A context lost while drawing: nothing was drawn; the view is drawn again when it is given back.
      if (stopped.signal.aborted || lost) return;
      if (whole) markDrawn();
      if (asked) requestDraw();
    });
  };
  // Nothing is drawn until the page shows the model's facts (show()): the first drawing of a large model keeps the GPU
  // process (a software renderer: the CPU) busy for seconds, and the page shows what it knows first.
  let showing = false;
  const requestDraw = () => {
    if (showing && frame === 0 && !lost) frame = requestAnimationFrame(draw);
  };
  controls.addEventListener('change', requestDraw);
  controls.addEventListener('start', requestDraw);

  const fit = () => {
    // A turn still easing out, or a zoom not yet applied, is ended first: OrbitControls would otherwise go on moving
    // the camera from where it is framed here.
    controls.enableDamping = false;
    controls.update();
    controls.enableDamping = true;
    const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere());
    const radius = sphere.radius || 1;
    const distance = radius / Math.sin((camera.fov * Math.PI) / 360);
    camera.position.copy(sphere.center).add(new Vector3(1, 0.8, 1).normalize().multiplyScalar(distance * 1.1));
    camera.near = distance / 100;
    camera.far = distance * 100;
    camera.updateProjectionMatrix();
    controls.target.copy(sphere.center);
    controls.update();
    requestDraw();
  };
  let sized = '';
  const resize = (to: CanvasBox) => {
    element.place(to);
    const width = Math.max(1, Math.round(to.width)), height = Math.max(1, Math.round(to.height));
    const ratio = Math.min(2, to.pixelRatio || 1);
    // A move alone, or the size already set, is not drawn again (a large model's drawing takes seconds in software).
    if (`${width}×${height}@${ratio}` === sized) return;
    sized = `${width}×${height}@${ratio}`;
    renderer.setPixelRatio(ratio);
    renderer.setSize(width, height, false);
    // A canvas resized is cleared: drawn again at the next frame, even while the parts go up.
    bedDrawn = false;
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    requestDraw();
  };
  // A context the system takes back (a GPU reset, too many contexts) is given back by the browser: three.js makes its
  // state anew (its arrays and shaders go up again), and the view is drawn again as it was. Meanwhile nothing is drawn.
  let lost = false;
  const canvas = renderer.domElement as unknown as OffscreenCanvas;
  const onLost = () => {
    lost = true;
    cancelAnimationFrame(frame);
    frame = 0;
    drawing = false;
  };
  const onRestored = () => {
    lost = false;
    bedDrawn = false;
    requestDraw();
  };
  canvas.addEventListener('webglcontextlost', onLost);
  canvas.addEventListener('webglcontextrestored', onRestored);
  markModelStep('scene');
  // The shaders are compiled before the first frame, for the 1×1 target the parts go up through and for the canvas:
  // where WebGL can (KHR_parallel_shader_compile), in the GPU process while the page's thread goes on.
  if (warmTarget) {
    warmCamera.layers.set(WARMING);
    renderer.setRenderTarget(warmTarget);
    await renderer.compileAsync(scene, warmCamera);
    renderer.setRenderTarget(null);
  }
  await renderer.compileAsync(scene, camera);
  resize(box);
  fit();

  return {
    triangles: parsed.triangles,
    size: parsed.size,
    layers: parsed.layers.map((layer) => ({ z: layer.z })),
    notes: parsed.notes,
    drawn,
    showLayersUpTo(layer: number) {
      const shown = clampLayer(layer, parsed.layers.length);
      parsed.layers.forEach((each, index) => {
        each.object.visible = index < shown;
      });
      requestDraw();
    },
    fit,
    resize,
    show() {
      if (showing) return;
      showing = true;
      requestDraw();
    },
    dispose() {
      stopped.abort();
      cancelAnimationFrame(frame);
      warmTarget?.dispose();
      controls.removeEventListener('change', requestDraw);
      controls.removeEventListener('start', requestDraw);
      canvas.removeEventListener('webglcontextlost', onLost);
      canvas.removeEventListener('webglcontextrestored', onRestored);
      controls.dispose();
      disposeObject(model);
      bed.dispose();
      material.dispose();
      renderer.dispose();
    },
  };
}
