import {
  AmbientLight, Box3, BufferGeometry, Color, DirectionalLight, Group, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer,
  type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';

export interface ModelScene {
  triangles: number;
  fit(): void;
  dispose(): void;
}

/** The model's triangles, whether indexed or not. */
function triangleCount(object: Object3D): number {
  let count = 0;
  object.traverse((child) => {
    const geometry = (child as Mesh).geometry as BufferGeometry | undefined;
    if (!geometry) return;
    count += (geometry.index ? geometry.index.count : geometry.getAttribute('position').count) / 3;
  });
  return Math.round(count);
}

/** Parses STL (binary or text) or OBJ bytes into something to show. */
function parseModel(type: string, bytes: ArrayBuffer, material: MeshStandardMaterial): Object3D {
  if (type === 'stl') {
    const geometry = new STLLoader().parse(bytes);
    geometry.computeVertexNormals();
    return new Mesh(geometry, material);
  }
  const group: Group = new OBJLoader().parse(new TextDecoder().decode(bytes));
  group.traverse((child) => {
    if ((child as Mesh).isMesh) (child as Mesh).material = material;
  });
  return group;
}

/**
 * An interactive view of a 3D model: orbit with the mouse or touch, zoom with the wheel, fit to view. The bytes come
 * from the host's own address (the file cache), so a model seen once works offline.
 */
export function showModel(canvas: HTMLCanvasElement, type: string, bytes: ArrayBuffer, dark: boolean): ModelScene {
  const renderer = new WebGLRenderer({ canvas, antialias: true });
  renderer.setPixelRatio(Math.min(2, globalThis.devicePixelRatio || 1));
  const scene = new Scene();
  scene.background = new Color(dark ? 0x1d2127 : 0xf0f2f5);
  scene.add(new AmbientLight(0xffffff, 0.6));
  const sun = new DirectionalLight(0xffffff, 1.2);
  sun.position.set(1, 2, 3);
  scene.add(sun);
  const material = new MeshStandardMaterial({ color: 0x7aa7ff, roughness: 0.6, metalness: 0.1 });
  const model = parseModel(type, bytes, material);
  scene.add(model);

  const camera = new PerspectiveCamera(45, 1, 0.01, 100_000);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = true;

  const fit = () => {
    const sphere = new Box3().setFromObject(model).getBoundingSphere(new Sphere());
    const radius = sphere.radius || 1;
    const distance = radius / Math.sin((camera.fov * Math.PI) / 360);
    camera.position.copy(sphere.center).add(new Vector3(1, 0.8, 1).normalize().multiplyScalar(distance * 1.1));
    camera.near = distance / 100;
    camera.far = distance * 100;
    camera.updateProjectionMatrix();
    controls.target.copy(sphere.center);
    controls.update();
  };
  const resize = () => {
    const { clientWidth, clientHeight } = canvas;
    renderer.setSize(clientWidth, clientHeight, false);
    camera.aspect = clientWidth / Math.max(1, clientHeight);
    camera.updateProjectionMatrix();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(canvas);
  resize();
  fit();
  let frame = 0;
  const loop = () => {
    controls.update();
    renderer.render(scene, camera);
    frame = requestAnimationFrame(loop);
  };
  loop();

  return {
    triangles: triangleCount(model),
    fit,
    dispose() {
      cancelAnimationFrame(frame);
      observer.disconnect();
      controls.dispose();
      model.traverse((child) => (child as Mesh).geometry?.dispose());
      material.dispose();
      renderer.dispose();
    },
  };
}
