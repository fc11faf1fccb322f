/**
 * A 3MF package read in the model worker, as its specification describes it (3MF Core 1.3): the OPC package's
 * `_rels/.rels` names the 3D model part; its resources are objects (meshes, or components placing other objects) and
 * property groups; its build places objects on the plate, each with a transform. Read too: the unit; the Materials
 * and Properties extension's base materials, colour groups and textures (images decoded here, in the worker);
 * the Production extension's objects in other model parts of the package; the Beam Lattice extension's beams, drawn
 * as lines. Said, not shown: beams' thickness, composite materials and multi-properties (shown in the object's
 * first colour), slices, and any other extension a file requires.
 */
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { threeMfUnitScale } from './model-measure';
import { boundsOf, flatNormals, meshOf, readOf, UnreadableModelError, type ModelPart, type ModelRead } from './model-parts';
import { LIFTED_ATTRIBUTE, liftMeshLists, type LiftedList, type LiftedTriangles, type LiftedVertices } from './model-threemf-mesh';
import { childElement, childElements, decodeXmlPart, numberAttribute, parseXmlPart, parseXmlText, type XmlElement } from './model-xml';
import { ModelNotes } from './model-words';

const CORE = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
const MATERIAL = 'http://schemas.microsoft.com/3dmanufacturing/material/2015/02';
const PRODUCTION = 'http://schemas.microsoft.com/3dmanufacturing/production/2015/06';
const BEAM = 'http://schemas.microsoft.com/3dmanufacturing/beamlattice/2017/02';
const MODEL_RELATIONSHIP = 'http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel';
/** The extensions read (in part or in full): a file requiring another is shown with a sentence saying so. */
const KNOWN_EXTENSIONS: Record<string, string> = {
  [MATERIAL]: 'Materials and Properties', [PRODUCTION]: 'Production', [BEAM]: 'Beam Lattice',
  'http://schemas.microsoft.com/3dmanufacturing/slice/2015/07': 'Slice',
  'http://schemas.microsoft.com/3dmanufacturing/beamlattice/balls/2020/07': 'Beam Lattice balls',
  'http://schemas.3mf.io/3dmanufacturing/volumetric/2022/01': 'Volumetric',
  'http://schemas.3mf.io/3dmanufacturing/displacement/2022/07': 'Displacement',
  'http://schemas.microsoft.com/3dmanufacturing/securecontent/2019/04': 'Secure Content',
};
const READ_EXTENSIONS = new Set([MATERIAL, PRODUCTION, BEAM]);

type Matrix = number[];
const IDENTITY: Matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** a × b, column-major (b applied first). */
function multiply(a: Matrix, b: Matrix): Matrix {
  const out = new Array<number>(16);
  for (let column = 0; column < 4; column++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row]! * b[column * 4 + k]!;
      out[column * 4 + row] = sum;
    }
  }
  return out;
}

/** A 3MF transform ("m00 m01 m02 m10 m11 m12 m20 m21 m22 m30 m31 m32", row vectors) as a column-major matrix. */
function transformOf(element: XmlElement, part: string): Matrix {
  const text = element.getAttribute('transform');
  if (!text) return IDENTITY;
  const m = text.trim().split(/\s+/).map(Number);
  if (m.length !== 12 || !m.every(Number.isFinite)) throw new UnreadableModelError('design.model.error.tmfTransform', { part, text });
  return [m[0]!, m[1]!, m[2]!, 0, m[3]!, m[4]!, m[5]!, 0, m[6]!, m[7]!, m[8]!, 0, m[9]!, m[10]!, m[11]!, 1];
}

/** "#RRGGBB" or "#RRGGBBAA" (sRGB) as 0xRRGGBB, or null. */
function colourOf(text: string | null): number | null {
  const match = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(text?.trim() ?? '');
  return match ? parseInt(match[1]!, 16) : null;
}

/** An sRGB channel (0–255) in linear light, as three's vertex colours are. */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

type PropertyGroup =
  | { kind: 'colours'; colours: (number | null)[] }
  | { kind: 'texture'; texture: number; uv: number[] }
  | { kind: 'other'; name: string };

interface MeshObject { kind: 'mesh'; element: XmlElement; pid: number | null; pindex: number }
interface ComponentsObject { kind: 'components'; components: { objectId: number; path: string | null; matrix: Matrix }[] }
type ThreeMfObject = (MeshObject | ComponentsObject) & { type: string };

interface ModelFile { objects: Map<number, ThreeMfObject>; groups: Map<number, PropertyGroup>; path: string; lists: LiftedList[] }

/** A model part parsed: its root, and the vertex and triangle lists read from its text (model-threemf-mesh). */
interface ParsedPart { root: XmlElement; lists: LiftedList[] }

interface Texture { path: string; contentType: string }

class PackageReader {
  readonly notes = new ModelNotes();
  readonly parts: ModelPart[] = [];
  readonly images: Promise<ImageBitmap | null>[] = [];
  private readonly imageIndex = new Map<string, number>();
  private readonly files = new Map<string, ModelFile>();
  /** Mesh parts already made, by model part and object id: an object placed twice shares its arrays. */
  private readonly made = new Map<string, ModelPart[]>();
  scale = 1;

  constructor(private readonly zip: Record<string, Uint8Array>) {}

  private readonly parsed = new Map<string, ParsedPart>();

  /** A model part's XML, parsed once (its big vertex and triangle lists read apart from the DOM). */
  part(path: string): ParsedPart {
    const known = this.parsed.get(path);
    if (known) return known;
    const bytes = this.zip[path.replace(/^\//, '')];
    if (!bytes) throw new UnreadableModelError('design.model.error.tmfPartMissing', { path });
    const lifted = liftMeshLists(decodeXmlPart(bytes, path));
    const part = { root: parseXmlText(lifted.text, path), lists: lifted.lists };
    this.parsed.set(path, part);
    return part;
  }

  /** A model part of the package (the start part, or another one a Production path names), read once. */
  file(path: string): ModelFile {
    const known = this.files.get(path);
    if (known) return known;
    const { root, lists } = this.part(path);
    if (root.namespaceURI !== CORE || root.localName !== 'model') throw new UnreadableModelError('design.model.error.tmfNotModel', { path });
    const file: ModelFile = { objects: new Map(), groups: new Map(), path, lists };
    this.files.set(path, file);
    this.readRequirements(root);
    const resources = childElement(root, CORE, 'resources');
    if (!resources) throw new UnreadableModelError('design.model.error.tmfNoResources', { path });
    for (const element of childElements(resources)) this.readResource(file, element);
    return file;
  }

  private readRequirements(root: XmlElement): void {
    for (const prefix of (root.getAttribute('requiredextensions') ?? '').trim().split(/\s+/).filter(Boolean)) {
      const namespace = root.lookupNamespaceURI(prefix);
      if (namespace === null) throw new UnreadableModelError('design.model.error.tmfUndeclaredPrefix', { prefix });
      if (!READ_EXTENSIONS.has(namespace)) {
        this.notes.add('design.model.note.tmfExtension', { extension: KNOWN_EXTENSIONS[namespace] ?? namespace });
      }
    }
  }

  /** `element`: the XML element defining it (its local name, "colorgroup"), as the file names it. */
  private defineOnce(file: ModelFile, id: number | null, element: string): number {
    if (id === null || !Number.isInteger(id) || id < 1) throw new UnreadableModelError('design.model.error.tmfNoId', { path: file.path, element });
    if (file.objects.has(id) || file.groups.has(id)) throw new UnreadableModelError('design.model.error.tmfDuplicateId', { path: file.path, id: String(id) });
    return id;
  }

  private readResource(file: ModelFile, element: XmlElement): void {
    const where = file.path;
    const name = element.localName;
    if (element.namespaceURI === CORE && name === 'object') {
      const id = this.defineOnce(file, numberAttribute(element, 'id', where), element.localName ?? '');
      const type = element.getAttribute('type') || 'model';
      if (!['model', 'solidsupport', 'support', 'surface', 'other'].includes(type)) throw new UnreadableModelError('design.model.error.tmfObjectType', { id: String(id), type });
      const mesh = childElement(element, CORE, 'mesh');
      const components = childElement(element, CORE, 'components');
      if (mesh) {
        file.objects.set(id, { kind: 'mesh', type, element: mesh, pid: numberAttribute(element, 'pid', where), pindex: numberAttribute(element, 'pindex', where) ?? 0 });
      } else if (components) {
        file.objects.set(id, {
          kind: 'components', type,
          components: [...childElements(components, CORE, 'component')].map((component) => ({
            objectId: numberAttribute(component, 'objectid', where) ?? -1,
            path: component.getAttributeNS(PRODUCTION, 'path') || null,
            matrix: transformOf(component, where),
          })),
        });
      } else {
        throw new UnreadableModelError('design.model.error.tmfObjectEmpty', { id: String(id) });
      }
      if (childElements(element, 'http://schemas.microsoft.com/3dmanufacturing/slice/2015/07').next().done === false || element.getAttributeNS('http://schemas.microsoft.com/3dmanufacturing/slice/2015/07', 'slicestackid')) {
        this.notes.add('design.model.note.tmfSlices');
      }
      return;
    }
    if (element.namespaceURI === CORE && name === 'basematerials') {
      const id = this.defineOnce(file, numberAttribute(element, 'id', where), element.localName ?? '');
      file.groups.set(id, { kind: 'colours', colours: [...childElements(element, CORE, 'base')].map((base) => colourOf(base.getAttribute('displaycolor'))) });
      return;
    }
    if (element.namespaceURI === MATERIAL && name === 'colorgroup') {
      const id = this.defineOnce(file, numberAttribute(element, 'id', where), element.localName ?? '');
      const colours = [...childElements(element, MATERIAL, 'color')].map((color) => {
        const colour = colourOf(color.getAttribute('color'));
        if (colour === null) throw new UnreadableModelError('design.model.error.tmfColour', { id: String(id), colour: color.getAttribute('color') ?? '' });
        return colour;
      });
      file.groups.set(id, { kind: 'colours', colours });
      return;
    }
    if (element.namespaceURI === MATERIAL && name === 'texture2d') {
      const id = this.defineOnce(file, numberAttribute(element, 'id', where), element.localName ?? '');
      const path = element.getAttribute('path');
      const contentType = element.getAttribute('contenttype') ?? '';
      if (!path) throw new UnreadableModelError('design.model.error.tmfTextureNoPath', { id: String(id) });
      if (!['image/png', 'image/jpeg'].includes(contentType)) throw new UnreadableModelError('design.model.error.tmfTextureType', { id: String(id), type: contentType });
      file.groups.set(id, { kind: 'other', name: `texture:${this.textureIndex({ path, contentType })}` });
      return;
    }
    if (element.namespaceURI === MATERIAL && name === 'texture2dgroup') {
      const id = this.defineOnce(file, numberAttribute(element, 'id', where), element.localName ?? '');
      const texId = numberAttribute(element, 'texid', where);
      const texture = texId === null ? undefined : file.groups.get(texId);
      if (!texture || texture.kind !== 'other' || !texture.name.startsWith('texture:')) throw new UnreadableModelError('design.model.error.tmfTextureGroup', { id: String(id) });
      const uv: number[] = [];
      for (const coord of childElements(element, MATERIAL, 'tex2coord')) uv.push(numberAttribute(coord, 'u', where) ?? 0, numberAttribute(coord, 'v', where) ?? 0);
      file.groups.set(id, { kind: 'texture', texture: Number(texture.name.slice(8)), uv });
      return;
    }
    if (element.namespaceURI === MATERIAL && (name === 'compositematerials' || name === 'multiproperties')) {
      const id = this.defineOnce(file, numberAttribute(element, 'id', where), element.localName ?? '');
      file.groups.set(id, { kind: 'other', name });
      this.notes.add(name === 'compositematerials' ? 'design.model.note.tmfComposite' : 'design.model.note.tmfMultiProperties');
    }
  }

  private textureIndex(texture: Texture): number {
    const known = this.imageIndex.get(texture.path);
    if (known !== undefined) return known;
    const index = this.images.length;
    this.imageIndex.set(texture.path, index);
    const bytes = this.zip[texture.path.replace(/^\//, '')];
    if (!bytes) throw new UnreadableModelError('design.model.error.tmfTextureMissing', { path: texture.path });
    this.images.push(decodeImage(bytes, texture.contentType).catch(() => {
      this.notes.add('design.model.note.tmfTextureUndecodable', { path: texture.path });
      return null;
    }));
    return index;
  }

  /** An object of a model part placed by `matrix` (and what placed it), as mesh parts. */
  place(file: ModelFile, objectId: number, matrix: Matrix, depth = 0): void {
    if (depth > 32) throw new UnreadableModelError('design.model.error.tmfLoop');
    const object = file.objects.get(objectId);
    if (!object) throw new UnreadableModelError('design.model.error.tmfComponentObject', { id: String(objectId), path: file.path });
    if (object.kind === 'components') {
      for (const component of object.components) {
        const target = component.path ? this.file(component.path) : file;
        this.place(target, component.objectId, multiply(matrix, component.matrix), depth + 1);
      }
      return;
    }
    const key = `${file.path}#${objectId}`;
    let made = this.made.get(key);
    if (!made) {
      made = this.meshParts(file, objectId, object);
      this.made.set(key, made);
    }
    for (const part of made) this.parts.push({ ...part, matrix: matrix === IDENTITY ? null : matrix } as ModelPart);
  }

  /** A mesh object's triangles, coloured by their properties, and its beams. */
  private meshParts(file: ModelFile, objectId: number, object: MeshObject): ModelPart[] {
    const where = file.path;
    const lifted = <T extends LiftedList>(element: XmlElement | null, kind: T['kind']): T | null => {
      const mark = element?.getAttribute(LIFTED_ATTRIBUTE);
      const list = mark ? file.lists[Number(mark)] : undefined;
      return list?.kind === kind ? list as T : null;
    };
    let vertices: number[] | Float64Array = [];
    const verticesElement = childElement(object.element, CORE, 'vertices');
    const liftedVertices = lifted<LiftedVertices>(verticesElement, 'vertices');
    if (liftedVertices) {
      vertices = liftedVertices.xyz;
    } else if (verticesElement) {
      for (const vertex of childElements(verticesElement, CORE, 'vertex')) {
        const x = numberAttribute(vertex, 'x', where), y = numberAttribute(vertex, 'y', where), z = numberAttribute(vertex, 'z', where);
        if (x === null || y === null || z === null) throw new UnreadableModelError('design.model.error.tmfVertex', { id: String(objectId) });
        (vertices as number[]).push(x, y, z);
      }
    }
    const count = vertices.length / 3;
    /** Triangles by what covers them: a colour per corner (-1: the view's own colour), or a texture's coordinates. */
    const plain: { position: number[]; colour: number[] } = { position: [], colour: [] };
    const textured = new Map<number, { position: number[]; uv: number[] }>();
    const trianglesElement = childElement(object.element, CORE, 'triangles');
    const corner = (index: number | null): number => {
      if (index === null || !Number.isInteger(index) || index < 0 || index >= count) throw new UnreadableModelError('design.model.error.tmfCorner', { id: String(objectId), count });
      return index;
    };
    const liftedTriangles = lifted<LiftedTriangles>(trianglesElement, 'triangles');
    /** Plain triangles of a large mesh without properties, written straight into their array. */
    let plainPosition: Float32Array | null = null;
    if (liftedTriangles && !liftedTriangles.properties && object.pid === null) {
      const { corners } = liftedTriangles;
      plainPosition = new Float32Array(liftedTriangles.count * 9);
      for (let k = 0; k < corners.length; k++) {
        const at = corner(corners[k]!) * 3;
        plainPosition[k * 3] = vertices[at]!;
        plainPosition[k * 3 + 1] = vertices[at + 1]!;
        plainPosition[k * 3 + 2] = vertices[at + 2]!;
      }
    }
    /** Each triangle's attributes, from the DOM or from its lifted list. */
    const triangleList = (): Iterable<{ get(name: string): number | null; has(name: string): boolean }> => {
      if (liftedTriangles) {
        const { corners, properties, count: triangles } = liftedTriangles;
        const names = ['pid', 'p1', 'p2', 'p3'];
        let t = 0;
        const value = (name: string) => {
          const corner = ['v1', 'v2', 'v3'].indexOf(name);
          const raw = corner >= 0 ? corners[t * 3 + corner]! : properties ? properties[t * 4 + names.indexOf(name)]! : Number.NaN;
          return Number.isNaN(raw) ? null : raw;
        };
        const each = { get: value, has: (name: string) => value(name) !== null };
        return { *[Symbol.iterator]() { for (t = 0; t < triangles; t++) yield each; } };
      }
      return trianglesElement
        ? [...childElements(trianglesElement, CORE, 'triangle')].map((triangle) => ({ get: (name: string) => numberAttribute(triangle, name, where), has: (name: string) => triangle.hasAttribute(name) }))
        : [];
    };
    if (!plainPosition) {
      for (const triangle of triangleList()) {
        const v = [corner(triangle.get('v1')), corner(triangle.get('v2')), corner(triangle.get('v3'))];
        const pid = triangle.get('pid') ?? object.pid;
        const p1 = triangle.get('p1') ?? (triangle.has('pid') ? null : object.pindex);
        if (triangle.has('pid') && p1 === null) throw new UnreadableModelError('design.model.error.tmfNoP1', { id: String(objectId) });
        const indices = [p1 ?? 0, triangle.get('p2') ?? p1 ?? 0, triangle.get('p3') ?? p1 ?? 0];
        const group = pid === null ? undefined : file.groups.get(pid);
        if (pid !== null && !group) throw new UnreadableModelError('design.model.error.tmfGroupUndefined', { id: String(objectId), group: String(pid) });
        if (group?.kind === 'texture') {
          let bucket = textured.get(group.texture);
          if (!bucket) textured.set(group.texture, bucket = { position: [], uv: [] });
          for (let k = 0; k < 3; k++) {
            bucket.position.push(vertices[v[k]! * 3]!, vertices[v[k]! * 3 + 1]!, vertices[v[k]! * 3 + 2]!);
            bucket.uv.push(group.uv[indices[k]! * 2] ?? 0, group.uv[indices[k]! * 2 + 1] ?? 0);
          }
          continue;
        }
        for (let k = 0; k < 3; k++) {
          plain.position.push(vertices[v[k]! * 3]!, vertices[v[k]! * 3 + 1]!, vertices[v[k]! * 3 + 2]!);
          let colour = -1;
          if (group?.kind === 'colours') {
            const value = group.colours[indices[k]!];
            if (value === undefined) throw new UnreadableModelError('design.model.error.tmfPropertyIndex', { id: String(objectId), index: String(indices[k]), group: String(pid), count: group.colours.length });
            colour = value ?? -1;
          }
          plain.colour.push(colour);
        }
      }
    }
    const parts: ModelPart[] = [];
    if (plainPosition && plainPosition.length > 0) {
      parts.push(meshOf(plainPosition, { normal: flatNormals(plainPosition) }));
    } else if (plain.position.length > 0) {
      const position = new Float32Array(plain.position);
      const coloured = plain.colour.some((colour) => colour >= 0);
      const uniform = plain.colour.every((colour) => colour === plain.colour[0]);
      let color: Float32Array | null = null;
      if (coloured && !uniform) {
        color = new Float32Array(position.length);
        // A corner without a colour of its own takes the view's model colour (#7aa7ff).
        plain.colour.forEach((colour, k) => {
          const value = colour >= 0 ? colour : 0x7aa7ff;
          color![k * 3] = linear((value >> 16) & 255);
          color![k * 3 + 1] = linear((value >> 8) & 255);
          color![k * 3 + 2] = linear(value & 255);
        });
      }
      parts.push(meshOf(position, { normal: flatNormals(position), color, tint: coloured && uniform ? plain.colour[0]! : null }));
    }
    for (const [texture, bucket] of textured) {
      const position = new Float32Array(bucket.position);
      parts.push(meshOf(position, { normal: flatNormals(position), uv: new Float32Array(bucket.uv), texture }));
    }
    const lattice = childElement(object.element, BEAM, 'beamlattice');
    const beams = lattice ? childElement(lattice, BEAM, 'beams') : null;
    if (beams) {
      const lines: number[] = [];
      for (const beam of childElements(beams, BEAM, 'beam')) {
        for (const end of [corner(numberAttribute(beam, 'v1', where)), corner(numberAttribute(beam, 'v2', where))]) lines.push(vertices[end * 3]!, vertices[end * 3 + 1]!, vertices[end * 3 + 2]!);
      }
      if (lines.length > 0) {
        const position = new Float32Array(lines);
        parts.push({ kind: 'lines', position, matrix: null, bounds: boundsOf(position) });
        this.notes.add('design.model.note.tmfBeams');
      }
    }
    return parts;
  }
}

/** A texture's image decoded in the worker, flipped as 3MF's texture coordinates count (v from the bottom). */
async function decodeImage(bytes: Uint8Array, type: string): Promise<ImageBitmap> {
  return createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), { imageOrientation: 'flipY' });
}

/** The relationships part's target of a 3D model, checked as 3MF asks: exactly one, inside the package. */
function startPart(zip: Record<string, Uint8Array>): string {
  const rels = zip['_rels/.rels'];
  if (!rels) throw new UnreadableModelError('design.model.error.tmfNoRels');
  const root = parseXmlPart(rels, '_rels/.rels');
  const models = [...childElements(root)].filter((relationship) => relationship.localName === 'Relationship' && relationship.getAttribute('Type') === MODEL_RELATIONSHIP);
  if (models.length === 0) throw new UnreadableModelError('design.model.error.tmfRelsNoModel');
  if (models.length > 1) throw new UnreadableModelError('design.model.error.tmfRelsManyModels');
  const target = models[0]!.getAttribute('Target') ?? '';
  if (models[0]!.getAttribute('TargetMode') === 'External' || /^[a-z][a-z0-9+.-]*:/i.test(target)) {
    throw new UnreadableModelError('design.model.error.tmfExternalModel', { target });
  }
  return target.startsWith('/') ? target : `/${target}`;
}

/** A 3MF file's bytes, read: its build's objects placed, in millimetres. */
export async function threeMfRead(bytes: ArrayBuffer): Promise<ModelRead> {
  let zip: Record<string, Uint8Array>;
  try {
    zip = unzipSync(new Uint8Array(bytes));
  } catch {
    throw new UnreadableModelError('design.model.error.tmfZipIncomplete');
  }
  const reader = new PackageReader(zip);
  const start = startPart(zip);
  if (!zip[start.slice(1)]) throw new UnreadableModelError('design.model.error.tmfStartMissing', { path: start });
  const { root } = reader.part(start);
  const unit = root.getAttribute('unit');
  const scale = threeMfUnitScale(unit);
  if (scale === null) throw new UnreadableModelError('design.model.error.tmfUnit', { unit: unit ?? '' });
  const file = reader.file(start);
  const build = childElement(root, CORE, 'build');
  if (!build) throw new UnreadableModelError('design.model.error.tmfNoBuild');
  const units: number[] = [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1];
  for (const item of childElements(build, CORE, 'item')) {
    const objectId = numberAttribute(item, 'objectid', start);
    if (objectId === null) throw new UnreadableModelError('design.model.error.tmfBuildItemNoObject');
    const path = item.getAttributeNS(PRODUCTION, 'path');
    const target = path ? reader.file(path) : file;
    const object = target.objects.get(objectId);
    if (!object) throw new UnreadableModelError('design.model.error.tmfBuildObjectUndefined', { id: String(objectId) });
    if (object.type === 'other') throw new UnreadableModelError('design.model.error.tmfBuildObjectOther', { id: String(objectId) });
    reader.place(target, objectId, multiply(units, transformOf(item, start)));
  }
  const images = await Promise.all(reader.images);
  const textures: ImageBitmap[] = [];
  const remap = images.map((image) => (image ? textures.push(image) - 1 : -1));
  const parts = reader.parts.map((part) => {
    if (part.kind !== 'mesh' || part.texture === null) return part;
    const texture = remap[part.texture]!;
    return texture >= 0 ? { ...part, texture } : { ...part, texture: null, uv: null };
  });
  if (parts.length === 0) throw new UnreadableModelError('design.model.error.tmfBuildEmpty');
  return readOf(parts, reader.notes.list(), textures);
}
