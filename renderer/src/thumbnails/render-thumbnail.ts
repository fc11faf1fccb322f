import { AmbientLight, Box3, Color, DirectionalLight, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, type Material, type Object3D } from 'three';
import { parseModel } from '../views/design/model-parse';
import { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';

export { UnreadableModelError } from '../views/design/model-parse';
export { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';
/** A light grey that sits on both themes' cards (the picture is kept once, whatever the theme). */
const BACKGROUND = 0xe4e8ee;

function dispose(object: Object3D): void {
  object.traverse((child) => {
    const mesh = child as Mesh;
    mesh.geometry?.dispose();
    const materials = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const material of materials as Material[]) material.dispose();
  });
}

/**
 * A picture of a model, drawn once off-screen (a canvas never added to the page): read as the 3D preview reads it
 * (right way up, standing on y = 0), seen from the front right and a little above, with a margin that survives a
 * card's cropping to its own shape, on a neutral background; answered as a PNG. Throws the preview's UnreadableModelError for a file that cannot be read.
 */
export function renderThumbnail(type: string, bytes: ArrayBuffer, signal?: AbortSignal): Promise<Blob> {
  return drawn(type, bytes, async (canvas) => {
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('The drawn picture could not be made into a PNG.');
    return blob;
  }, signal);
}

/** The same picture, copied onto a canvas of the page (2D, THUMBNAIL_WIDTH × THUMBNAIL_HEIGHT): shown, never kept. */
export function drawThumbnailOn(target: HTMLCanvasElement, type: string, bytes: ArrayBuffer, signal?: AbortSignal): Promise<void> {
  return drawn(type, bytes, async (canvas) => {
    const context = target.getContext('2d');
    if (!context) throw new Error('The page gave no canvas to draw the picture on.');
    context.drawImage(canvas, 0, 0, target.width, target.height);
  }, signal);
}

/** Draws the model once off-screen, then hands the drawn canvas to `use` before everything is let go. */
async function drawn<T>(type: string, bytes: ArrayBuffer, use: (canvas: HTMLCanvasElement) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const material = new MeshStandardMaterial({ color: 0x7aa7ff, roughness: 0.6, metalness: 0.1 });
  let model: Object3D;
  try {
    model = (await parseModel(type, bytes, material, 0x2f6fd6, signal)).object;
  } catch (error) {
    material.dispose();
    throw error;
  }
  const canvas = document.createElement('canvas');
  canvas.width = THUMBNAIL_WIDTH;
  canvas.height = THUMBNAIL_HEIGHT;
  const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, alpha: false });
  try {
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
    scene.add(model);

    const camera = new PerspectiveCamera(35, THUMBNAIL_WIDTH / THUMBNAIL_HEIGHT, 0.01, 100_000);
    const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere());
    const radius = sphere.radius || 1;
    const distance = radius / Math.sin((camera.fov * Math.PI) / 360);
    camera.position.copy(sphere.center).add(new Vector3(1, 0.75, 1.2).normalize().multiplyScalar(distance * 1.3));
    camera.near = distance / 100;
    camera.far = distance * 100;
    camera.lookAt(sphere.center);
    camera.updateProjectionMatrix();
    renderer.render(scene, camera);
    return await use(canvas);
  } finally {
    dispose(model);
    material.dispose();
    renderer.dispose();
    renderer.forceContextLoss();
  }
}
