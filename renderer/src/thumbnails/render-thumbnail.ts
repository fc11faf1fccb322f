import { AmbientLight, Box3, Color, DirectionalLight, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, type Material, type Object3D } from 'three';
import { parseModel } from '../views/design/model-parse';
import { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';

export { UnreadableModelError } from '../views/design/model-parse';
export { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';
/** A light grey that sits on both themes' cards (the picture is kept once, whatever the theme). */
const BACKGROUND = 0xe4e8ee;

/**
 * The material models are drawn with, one for every picture: disposing it would let its compiled shaders go with it,
 * to be compiled again for the next picture.
 */
const MODEL_MATERIAL = new MeshStandardMaterial({ color: 0x7aa7ff, roughness: 0.6, metalness: 0.1 });

/** Lets a drawn model's geometry and its own materials go (not the shared MODEL_MATERIAL). */
function dispose(object: Object3D): void {
  object.traverse((child) => {
    const mesh = child as Mesh;
    mesh.geometry?.dispose();
    const materials = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const material of materials as Material[]) if (material !== MODEL_MATERIAL) material.dispose();
  });
}

/**
 * A picture of a model, drawn once off-screen (a canvas never added to the page): read as the 3D preview reads it
 * (right way up, standing on y = 0), seen from the front right and a little above, with a margin that survives a
 * card's cropping to its own shape, on a neutral background; answered as a PNG. Throws the preview's UnreadableModelError for a file that cannot be read.
 */
export function renderThumbnail(type: string, bytes: ArrayBuffer, signal?: AbortSignal): Promise<Blob> {
  return drawn(type, bytes, async (picture) => {
    const canvas = new OffscreenCanvas(picture.width, picture.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('The drawn picture could not be made into a PNG (no canvas to put it on).');
    context.putImageData(picture, 0, 0);
    return canvas.convertToBlob({ type: 'image/png' });
  }, signal);
}

/** The same picture, copied onto a canvas of the page (2D, THUMBNAIL_WIDTH × THUMBNAIL_HEIGHT): shown, never kept. */
export function drawThumbnailOn(target: HTMLCanvasElement, type: string, bytes: ArrayBuffer, signal?: AbortSignal): Promise<void> {
  return drawn(type, bytes, async (picture) => {
    const context = target.getContext('2d');
    if (!context) throw new Error('The page gave no canvas to draw the picture on.');
    const bitmap = await createImageBitmap(picture);
    try {
      context.drawImage(bitmap, 0, 0, target.width, target.height);
    } finally {
      bitmap.close();
    }
  }, signal);
}

/** The off-screen renderer is let go this long after its last picture (a WebGL context held by nothing shown). */
const RENDERER_KEPT_MS = 10_000;

interface Drawer {
  canvas: HTMLCanvasElement;
  renderer: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
}

/**
 * One off-screen canvas and renderer for every picture: its context, and the shaders compiled in it, are made once
 * rather than for each picture (making them was most of a picture's time, and the page's longest tasks, in Chromium's
 * software renderer). Let go once no picture was drawn for RENDERER_KEPT_MS.
 */
let drawer: Drawer | null = null;
let releaseTimer: ReturnType<typeof setTimeout> | null = null;
/** Pictures take the drawer in turn: a drawing is read back before the next one is drawn. */
let turn: Promise<unknown> = Promise.resolve();

function makeDrawer(): Drawer {
  const canvas = document.createElement('canvas');
  canvas.width = THUMBNAIL_WIDTH;
  canvas.height = THUMBNAIL_HEIGHT;
  const renderer = new WebGLRenderer({ canvas, antialias: true, alpha: false });
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

function releaseDrawer(): void {
  releaseTimer = null;
  const released = drawer;
  drawer = null;
  if (!released) return;
  released.renderer.dispose();
  released.renderer.forceContextLoss();
}

/** Runs `work` with the drawer once the pictures before it are done; the drawer is let go a while after the last. */
function withDrawer<T>(work: (drawer: Drawer) => Promise<T>): Promise<T> {
  const run = turn.then(async () => {
    if (releaseTimer !== null) clearTimeout(releaseTimer);
    releaseTimer = null;
    drawer ??= makeDrawer();
    try {
      return await work(drawer);
    } finally {
      releaseTimer = setTimeout(releaseDrawer, RENDERER_KEPT_MS);
    }
  });
  turn = run.catch(() => undefined);
  return run;
}

/**
 * Draws the model once off-screen and reads the picture back without holding the page's thread while the drawing is
 * done (the software renderer of machines without a GPU takes hundreds of milliseconds: read back at once, the page
 * could not answer a key meanwhile); then hands its pixels to `use` before the model is let go.
 */
async function drawn<T>(type: string, bytes: ArrayBuffer, use: (picture: ImageData) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const model = (await parseModel(type, bytes, MODEL_MATERIAL, 0x2f6fd6, signal)).object;
  try {
    return await withDrawer(async ({ renderer, scene, camera }) => {
      signal?.throwIfAborted();
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
        // Shaders are compiled without holding the page's thread where the browser can (the first picture's only).
        await renderer.compileAsync(scene, camera);
        renderer.render(scene, camera);
        const pixels = await readBack(renderer.getContext(), THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT);
        return await use(upright(pixels, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT));
      } finally {
        scene.remove(model);
      }
    });
  } finally {
    dispose(model);
  }
}

/** How often a read back is checked for (the drawing is done by then or not). */
const READ_BACK_POLL_MS = 4;

/**
 * The canvas's pixels as just drawn (its multisampled picture resolved), read into a buffer of the GPU's and fetched
 * once the drawing is done: the page's thread waits for it between tasks, never inside one (a fence polled).
 */
async function readBack(context: WebGLRenderingContext | WebGL2RenderingContext, width: number, height: number): Promise<Uint8Array> {
  const pixels = new Uint8Array(width * height * 4);
  if (!(context instanceof WebGL2RenderingContext)) {
    // WebGL 1 (three.js needs 2 now; kept for safety) reads at once.
    context.readPixels(0, 0, width, height, context.RGBA, context.UNSIGNED_BYTE, pixels);
    return pixels;
  }
  const gl = context;
  const buffer = gl.createBuffer();
  if (!buffer) throw new Error('The drawn picture could not be read back (no buffer).');
  try {
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
    gl.bufferData(gl.PIXEL_PACK_BUFFER, pixels.byteLength, gl.STREAM_READ);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, 0);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!fence) throw new Error('The drawn picture could not be read back (no fence).');
    gl.flush();
    try {
      for (;;) {
        const status = gl.clientWaitSync(fence, 0, 0);
        if (status === gl.WAIT_FAILED) throw new Error('The drawn picture could not be read back (the wait failed).');
        if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) break;
        await new Promise((resolve) => setTimeout(resolve, READ_BACK_POLL_MS));
      }
    } finally {
      gl.deleteSync(fence);
    }
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
    gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, pixels);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    return pixels;
  } finally {
    gl.deleteBuffer(buffer);
  }
}

/** Pixels read back from WebGL (bottom row first) as an image (top row first). */
function upright(pixels: Uint8Array, width: number, height: number): ImageData {
  const row = width * 4;
  const flipped = new Uint8ClampedArray(pixels.length);
  for (let y = 0; y < height; y++) flipped.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
  return new ImageData(flipped, width, height);
}
