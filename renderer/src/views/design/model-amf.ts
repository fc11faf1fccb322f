/**
 * An AMF file read in the model worker (ISO/ASTM 52915): plain XML or zipped (as PrusaSlicer writes it); its objects'
 * meshes, volumes coloured by their material or colour, in the unit it names; its constellation's instances placed
 * as it says (offsets, and turns about x, y and z in degrees). Said, not shown: textures and curved triangles.
 */
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { flatNormals, meshOf, readOf, UnreadableModelError, type ModelPart, type ModelRead } from './model-parts';
import { childElements, parseXmlPart, type XmlElement } from './model-xml';
import { ModelNotes } from './model-words';

/** Millimetres per unit of AMF's `unit` attribute (millimetre when absent). */
const AMF_UNITS: Record<string, number> = { millimeter: 1, millimetre: 1, inch: 25.4, feet: 304.8, foot: 304.8, meter: 1000, metre: 1000, micrometer: 0.001, micron: 0.001 };

const named = (parent: XmlElement, name: string) => [...childElements(parent)].filter((child) => child.localName === name);

function text(element: XmlElement | null): string {
  return element?.textContent?.trim() ?? '';
}

function number(element: XmlElement, name: string, fallback: number | null): number {
  const child = named(element, name)[0];
  const value = child ? Number(text(child)) : fallback;
  if (value === null || !Number.isFinite(value)) {
    throw child
      ? new UnreadableModelError('design.model.error.amfNotNumber', { element: element.localName ?? '', name, text: text(child) })
      : new UnreadableModelError('design.model.error.amfMissing', { element: element.localName ?? '', name });
  }
  return value;
}

/** An AMF <color> (r, g, b from 0 to 1) as 0xRRGGBB, or null when there is none. */
function colourOf(parent: XmlElement): number | null {
  const color = [...childElements(parent)].find((child) => child.localName === 'color');
  if (!color) return null;
  const channel = (name: string) => Math.round(Math.min(1, Math.max(0, number(color, name, 0))) * 255);
  return (channel('r') << 16) | (channel('g') << 8) | channel('b');
}

/** The AMF document of a file: the XML itself, or the one file in its zip archive. */
function documentOf(bytes: ArrayBuffer): XmlElement {
  const view = new Uint8Array(bytes);
  if (view[0] === 0x50 && view[1] === 0x4b) {
    let zip: Record<string, Uint8Array>;
    try {
      zip = unzipSync(view);
    } catch {
      throw new UnreadableModelError('design.model.error.amfZipIncomplete');
    }
    const name = Object.keys(zip).find((entry) => !entry.endsWith('/'));
    if (!name) throw new UnreadableModelError('design.model.error.amfZipEmpty');
    return parseXmlPart(zip[name]!, name);
  }
  return parseXmlPart(view, null);
}

/** A column-major matrix turning about x, then y, then z (degrees), then moving by the offsets. */
function instanceMatrix(instance: XmlElement, scale: number): number[] {
  const read = (name: string) => {
    const child = named(instance, name)[0];
    const value = child ? Number(text(child)) : 0;
    if (!Number.isFinite(value)) throw new UnreadableModelError('design.model.error.amfConstellationNotNumber', { name, text: text(child!) });
    return value;
  };
  const [rx, ry, rz] = ['rx', 'ry', 'rz'].map((name) => (read(name) * Math.PI) / 180) as [number, number, number];
  const [cx, sx, cy, sy, cz, sz] = [Math.cos(rx), Math.sin(rx), Math.cos(ry), Math.sin(ry), Math.cos(rz), Math.sin(rz)];
  // R = Rz · Ry · Rx
  const m = [
    cz * cy, sz * cy, -sy, 0,
    cz * sy * sx - sz * cx, sz * sy * sx + cz * cx, cy * sx, 0,
    cz * sy * cx + sz * sx, sz * sy * cx - cz * sx, cy * cx, 0,
    read('deltax'), read('deltay'), read('deltaz'), 1,
  ];
  return m.map((value, index) => (index === 15 ? value : value * scale));
}

export function amfRead(bytes: ArrayBuffer): ModelRead {
  const root = documentOf(bytes);
  if (root.localName !== 'amf') throw new UnreadableModelError('design.model.error.amfNotAmf', { root: '<amf>' });
  const unit = (root.getAttribute('unit') || 'millimeter').toLowerCase();
  const scale = AMF_UNITS[unit];
  if (scale === undefined) throw new UnreadableModelError('design.model.error.amfUnit', { unit });
  const notes = new ModelNotes();
  const materials = new Map<string, number | null>();
  for (const material of named(root, 'material')) materials.set(material.getAttribute('id') ?? '', colourOf(material));
  const objects = new Map<string, ModelPart[]>();
  for (const object of named(root, 'object')) {
    const objectColour = colourOf(object);
    const parts: ModelPart[] = [];
    for (const mesh of named(object, 'mesh')) {
      const vertices: number[] = [];
      for (const vertices_ of named(mesh, 'vertices')) {
        for (const vertex of named(vertices_, 'vertex')) {
          const coordinates = named(vertex, 'coordinates')[0];
          if (!coordinates) throw new UnreadableModelError('design.model.error.amfVertexNoCoordinates');
          vertices.push(number(coordinates, 'x', null), number(coordinates, 'y', null), number(coordinates, 'z', null));
          if (named(vertex, 'normal').length > 0 || named(vertex, 'edge').length > 0) notes.add('design.model.note.amfCurved');
        }
      }
      const count = vertices.length / 3;
      for (const volume of named(mesh, 'volume')) {
        const position: number[] = [];
        for (const triangle of named(volume, 'triangle')) {
          for (const corner of ['v1', 'v2', 'v3']) {
            const index = number(triangle, corner, null);
            if (!Number.isInteger(index) || index < 0 || index >= count) throw new UnreadableModelError('design.model.error.amfCorner', { corner: String(index), count });
            position.push(vertices[index * 3]!, vertices[index * 3 + 1]!, vertices[index * 3 + 2]!);
          }
          if (named(triangle, 'texmap').length > 0) notes.add('design.model.note.amfTextures');
        }
        if (position.length === 0) continue;
        const materialId = volume.getAttribute('materialid');
        const tint = colourOf(volume) ?? (materialId !== null ? materials.get(materialId) ?? null : null) ?? objectColour;
        const array = new Float32Array(position);
        parts.push(meshOf(array, { normal: flatNormals(array), tint }));
      }
    }
    objects.set(object.getAttribute('id') ?? '', parts);
  }
  const units = [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1];
  const placed: ModelPart[] = [];
  const constellations = named(root, 'constellation');
  if (constellations.length > 0) {
    for (const instance of named(constellations[0]!, 'instance')) {
      const parts = objects.get(instance.getAttribute('objectid') ?? '');
      if (!parts) {
        const object = instance.getAttribute('objectid');
        throw object === null
          ? new UnreadableModelError('design.model.error.amfConstellationNoObject')
          : new UnreadableModelError('design.model.error.amfConstellationObject', { object });
      }
      const matrix = instanceMatrix(instance, scale);
      for (const part of parts) placed.push({ ...part, matrix } as ModelPart);
    }
  } else {
    for (const parts of objects.values()) for (const part of parts) placed.push({ ...part, matrix: units } as ModelPart);
  }
  if (placed.length === 0) throw new UnreadableModelError('design.model.error.noTriangles');
  return readOf(placed, notes.list());
}
