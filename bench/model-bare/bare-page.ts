/**
 * The yardstick of the window's 3D view: three.js's own loaders (STLLoader, ThreeMFLoader, GCodeLoader, of the three
 * version the window uses) in a bare page, drawing a model as three.js's examples do: fetched, parsed on the page's
 * thread, a plain WebGLRenderer (its defaults), the loaders' own materials (for STL the example's Phong material),
 * a hemisphere and a directional light, the model turned Z up as the window shows it, a camera framing the model's
 * bounds, one render; then a fence polled until
 * the GPU (here Chromium's software renderer) has drawn it, as the window's view waits for its first frame.
 * The benchmark calls `bareModel.load(url, type, width, height)` and reads what it resolves to.
 */
import {
  Box3, Color, DirectionalLight, HemisphereLight, Mesh, MeshPhongMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer, type Object3D,
} from 'three';
import { GCodeLoader } from 'three/examples/jsm/loaders/GCodeLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { ThreeMFLoader } from 'three/examples/jsm/loaders/3MFLoader.js';

/** The few DOM names used here: the benchmarks' TypeScript world is Node's, without the DOM's types. */
interface PageScope {
  document: { getElementById(id: string): { style: { width: string; height: string } } | null };
  devicePixelRatio: number;
  bareModel?: { load(url: string, type: string, width: number, height: number): Promise<BareTimes> };
}

export interface BareTimes {
  /** From the fetch's start to the frame drawn. */
  totalMs: number;
  fetchMs: number;
  parseMs: number;
  /** The scene made and renderer.render called (shaders compiled, arrays uploaded). */
  renderCallMs: number;
  /** From render's return to its fence signalled: the GPU's drawing. */
  drawMs: number;
  triangles: number;
  segments: number;
}

const scope = globalThis as unknown as PageScope;
const POLL_MS = 4;

function parsed(type: string, body: ArrayBuffer | string): Object3D {
  switch (type) {
    case 'stl': {
      const geometry = new STLLoader().parse(body);
      return new Mesh(geometry, new MeshPhongMaterial({ color: 0xd5d5d5, specular: 0x494949, shininess: 200 }));
    }
    case '3mf':
      return new ThreeMFLoader().parse(body as ArrayBuffer);
    case 'gcode':
      return new GCodeLoader().parse(body as string);
    default:
      throw new Error(`no three.js loader here for ${type}`);
  }
}

function counts(object: Object3D): { triangles: number; segments: number } {
  let triangles = 0, segments = 0;
  object.traverse((child) => {
    const geometry = (child as Mesh).geometry;
    if (!geometry) return;
    const vertices = geometry.index ? geometry.index.count : geometry.getAttribute('position').count;
    if ((child as Mesh).isMesh) triangles += vertices / 3;
    else segments += vertices / 2;
  });
  return { triangles, segments };
}

/** Resolves once the GPU has done everything asked of it so far: a fence, polled between tasks. */
async function drawnByGpu(gl: WebGL2RenderingContextLike): Promise<void> {
  const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  try {
    for (;;) {
      const status = gl.clientWaitSync(fence, 0, 0);
      if (status === gl.WAIT_FAILED) throw new Error('the fence could not be waited on');
      if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    gl.deleteSync(fence);
  }
}

type WebGL2RenderingContextLike = {
  fenceSync(condition: number, flags: number): unknown; clientWaitSync(sync: unknown, flags: number, timeout: number): number; deleteSync(sync: unknown): void; flush(): void;
  SYNC_GPU_COMMANDS_COMPLETE: number; WAIT_FAILED: number; ALREADY_SIGNALED: number; CONDITION_SATISFIED: number;
};

async function load(url: string, type: string, width: number, height: number): Promise<BareTimes> {
  const canvas = scope.document.getElementById('view')!;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const started = performance.now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  // G-code is text (as three's FileLoader hands it to GCodeLoader); the others are bytes.
  const body = type === 'gcode' ? await response.text() : await response.arrayBuffer();
  const fetched = performance.now();
  const model = parsed(type, body);
  // Z up, as printers and CAD write STL and 3MF, turned to three's Y up as the window's view turns them (and three's
  // own STL and 3MF examples): the same picture from the same side. Lying on its side, the STL is seen from another
  // side, and a software renderer draws it in about half the time. GCodeLoader turns its own.
  if (type === 'stl' || type === '3mf') {
    model.rotation.x = -Math.PI / 2;
    model.updateMatrixWorld(true);
  }
  const parsedAt = performance.now();
  const renderer = new WebGLRenderer({ canvas: canvas as unknown as NonNullable<ConstructorParameters<typeof WebGLRenderer>[0]>['canvas'] });
  renderer.setPixelRatio(scope.devicePixelRatio);
  renderer.setSize(width, height);
  const scene = new Scene();
  scene.background = new Color(0xf0f2f5);
  const sun = new DirectionalLight(0xffffff, 2);
  sun.position.set(1, 2, 3);
  scene.add(new HemisphereLight(0xffffff, 0x8d7c7c, 2), sun, model);
  const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere());
  const camera = new PerspectiveCamera(45, width / height, 0.01, 100_000);
  const distance = (sphere.radius || 1) / Math.sin((camera.fov * Math.PI) / 360);
  camera.position.copy(sphere.center).add(new Vector3(1, 0.8, 1).normalize().multiplyScalar(distance * 1.1));
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  camera.lookAt(sphere.center);
  renderer.render(scene, camera);
  const rendered = performance.now();
  await drawnByGpu(renderer.getContext() as unknown as WebGL2RenderingContextLike);
  const drawn = performance.now();
  return {
    totalMs: drawn - started, fetchMs: fetched - started, parseMs: parsedAt - fetched, renderCallMs: rendered - parsedAt, drawMs: drawn - rendered,
    ...counts(model),
  };
}

scope.bareModel = { load };
