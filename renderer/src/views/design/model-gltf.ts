/**
 * A glTF or GLB file read in the model worker by three's GLTFLoader: its scene's meshes, each placed where the scene
 * puts it, in its material's base colour, vertex colours or base colour texture. The loader's own images are fetched
 * from blob: URLs, which the window's CSP does not allow: here a texture's image is decoded from its bytes
 * (createImageBitmap, no URL) and handed to the page as it is. Said, not shown: other textures (normal, roughness…),
 * animation, and textures in files beside the glTF file.
 */
import { LinearFilter, LinearMipmapLinearFilter, Mesh, RepeatWrapping, Texture, type BufferAttribute, type BufferGeometry, type InterleavedBufferAttribute, type MeshStandardMaterial } from 'three';
import { GLTFLoader, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { meshOf, readOf, UnreadableModelError, type ModelPart, type ModelRead } from './model-parts';
import { ModelNotes } from './model-words';

/** Plain floats of an attribute, whether interleaved, normalized or not: `size` components per vertex. */
function plainFloats(attribute: BufferAttribute | InterleavedBufferAttribute | undefined, size: number): Float32Array | null {
  if (!attribute) return null;
  if (!(attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute && attribute.array instanceof Float32Array && attribute.itemSize === size && !attribute.normalized) {
    return attribute.array;
  }
  const out = new Float32Array(attribute.count * size);
  for (let i = 0; i < attribute.count; i++) {
    out[i * size] = attribute.getX(i);
    if (size > 1) out[i * size + 1] = attribute.getY(i);
    if (size > 2) out[i * size + 2] = attribute.getZ(i);
  }
  return out;
}

function base64Bytes(uri: string): Uint8Array {
  const binary = atob(uri.slice(uri.indexOf(',') + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** GLTFLoader's textures made from their bytes in the worker: no blob: or data: URL is ever loaded. */
class WorkerTextures {
  readonly name = 'design-sync-worker-textures';
  constructor(private readonly parser: GLTFParser, private readonly notes: ModelNotes) {}

  loadTexture(textureIndex: number): Promise<Texture> | null {
    const json = this.parser.json as { textures: { source?: number; sampler?: number }[]; images: { uri?: string; bufferView?: number; mimeType?: string }[]; samplers?: { wrapS?: number; wrapT?: number }[] };
    const textureDef = json.textures[textureIndex]!;
    // A texture only an extension names (WebP, KTX2…): left to that extension's own plugin.
    if (textureDef.source === undefined) return null;
    const source = json.images[textureDef.source]!;
    // A texture that cannot be made resolves to null: its surfaces keep their base colour (GLTFLoader allows it).
    return (async (): Promise<Texture> => {
      let bytes: Uint8Array;
      if (source.bufferView !== undefined) bytes = new Uint8Array(await this.parser.getDependency('bufferView', source.bufferView) as ArrayBuffer);
      else if (source.uri?.startsWith('data:')) bytes = base64Bytes(source.uri);
      else {
        this.notes.add('design.model.note.gltfExternalTexture', { uri: source.uri ?? '' });
        return null as unknown as Texture;
      }
      try {
        const image = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: source.mimeType ?? '' }), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
        const texture = new Texture(image as unknown as HTMLImageElement);
        texture.flipY = false;
        const sampler = textureDef.sampler !== undefined ? json.samplers?.[textureDef.sampler] : undefined;
        texture.wrapS = (sampler?.wrapS ?? RepeatWrapping) as Texture['wrapS'];
        texture.wrapT = (sampler?.wrapT ?? RepeatWrapping) as Texture['wrapT'];
        texture.magFilter = LinearFilter;
        texture.minFilter = LinearMipmapLinearFilter;
        return texture;
      } catch (error) {
        // The decoder's own words (English, as the browser says them).
        const why = error instanceof Error ? error.message : String(error);
        this.notes.add('design.model.note.gltfTextureUndecodable', { why: why.replace(/\.$/, '') });
        return null as unknown as Texture;
      }
    })();
  }
}

/** GLTFLoader's words for what it needs and was not given, in the person's. */
function reasonOf(error: unknown): UnreadableModelError {
  const message = error instanceof Error ? error.message : String(error);
  if (/DRACOLoader/.test(message)) return new UnreadableModelError('design.model.error.gltfDraco');
  if (/Meshopt/i.test(message)) return new UnreadableModelError('design.model.error.gltfMeshopt');
  if (/KTX2Loader/.test(message)) return new UnreadableModelError('design.model.error.gltfKtx2');
  return new UnreadableModelError('design.model.error.gltfUnreadable', { why: message.replace(/^THREE\.\w+:\s*/, '').replace(/\.$/, '') });
}

export async function gltfRead(bytes: ArrayBuffer): Promise<ModelRead> {
  const notes = new ModelNotes();
  const loader = new GLTFLoader();
  loader.register((parser) => new WorkerTextures(parser, notes));
  const gltf = await new Promise<{ scene: import('three').Group; animations: unknown[] }>((resolve, reject) => {
    try {
      loader.parse(bytes, '', resolve, (error) => reject(reasonOf(error)));
    } catch (error) {
      reject(reasonOf(error));
    }
  });
  if (gltf.animations.length > 0) notes.add('design.model.note.gltfAnimations');
  gltf.scene.updateMatrixWorld(true);
  const textures: ImageBitmap[] = [];
  const parts: ModelPart[] = [];
  gltf.scene.traverse((child) => {
    const mesh = child as Mesh;
    if (!mesh.isMesh) return;
    const geometry = mesh.geometry as BufferGeometry;
    const material = (Array.isArray(mesh.material) ? mesh.material[0] : mesh.material) as MeshStandardMaterial | undefined;
    if (!geometry.hasAttribute('position')) return;
    if (!geometry.hasAttribute('normal')) geometry.computeVertexNormals();
    const position = plainFloats(geometry.getAttribute('position'), 3)!;
    const image = material?.map?.image as ImageBitmap | undefined;
    let texture: number | null = null;
    if (image) {
      texture = textures.indexOf(image);
      if (texture < 0) texture = textures.push(image) - 1;
    }
    if (material && (material.normalMap || material.roughnessMap || material.aoMap || material.emissiveMap)) notes.add('design.model.note.gltfBaseColours');
    const index = geometry.index?.array;
    parts.push(meshOf(position, {
      normal: plainFloats(geometry.getAttribute('normal'), 3),
      color: material?.vertexColors ? plainFloats(geometry.getAttribute('color'), 3) : null,
      index: index instanceof Uint32Array || index instanceof Uint16Array ? index : index ? Uint32Array.from(index) : null,
      uv: texture !== null ? plainFloats(geometry.getAttribute('uv'), 2) : null,
      texture,
      tint: material?.color ? material.color.getHex() : null,
      matrix: mesh.matrixWorld.elements.slice(),
    }));
  });
  if (parts.length === 0) throw new UnreadableModelError('design.model.error.gltfNoMeshes');
  return readOf(parts, notes.list(), textures);
}
