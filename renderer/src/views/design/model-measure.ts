/**
 * What the 3D view needs to know about a model file's type, as plain facts: which way is up, what its numbers measure,
 * and how its size is written. Pure (no three.js, no DOM), so it is tested on its own.
 */

import type { IntlShape } from '@formatjs/intl';

/** What is needed of an intl: react-intl's `useIntl()` or @formatjs/intl's. */
type Words = Pick<IntlShape, 'formatNumber' | 'formatMessage'>;
import { englishIntl } from './model-words';

export { isViewableModelType, VIEWABLE_MODEL_TYPES, type ViewableModelType } from '../../../../shared/files/model-files';

/**
 * Whether a type's numbers put up along +Z, as printers and CAD do (STL, 3MF, AMF, PLY; G-code, whose toolpaths are
 * turned as they are drawn): three.js puts up along +Y, so these are turned. glTF is Y-up by its specification, and
 * OBJ by custom (Blender's and most modellers' default export; the classic sample meshes).
 */
export function isZUp(type: string): boolean {
  return ['stl', '3mf', 'amf', 'ply'].includes(type.toLowerCase());
}

/** Millimetres per unit of 3MF's `unit` attribute (3MF core specification §3.3; millimetre when absent). */
const THREE_MF_UNITS: Record<string, number> = {
  micron: 0.001, millimeter: 1, centimeter: 10, inch: 25.4, foot: 304.8, meter: 1000,
};

/** Millimetres per unit of a 3MF model; null for a unit the specification does not name. */
export function threeMfUnitScale(unit: string | null | undefined): number | null {
  if (unit === null || unit === undefined || unit === '') return 1;
  return THREE_MF_UNITS[unit.trim().toLowerCase()] ?? null;
}

/**
 * Millimetres per unit of a type's numbers, apart from those whose file says (3MF and AMF, scaled as they are read):
 * glTF measures in metres by its specification; STL, OBJ, PLY and G-code carry no unit, and printers read them as
 * millimetres.
 */
export function unitScaleOf(type: string): number {
  const lower = type.toLowerCase();
  return lower === 'gltf' || lower === 'glb' ? 1000 : 1;
}

/** A length in millimetres, as a printer person reads it: whole or to a tenth, trailing ".0" dropped. */
export function formatMillimetres(length: number, intl: Words = englishIntl()): string {
  if (!Number.isFinite(length) || length < 0) return '?';
  const rounded = length >= 100 ? Math.round(length) : Math.round(length * 10) / 10;
  return intl.formatNumber(rounded, { maximumFractionDigits: 1 });
}

/** A layer's height in millimetres, to the hundredth a slicer gives it ("0.35", "19.85", "20"). */
export function formatLayerHeight(z: number, intl: Words = englishIntl()): string {
  if (!Number.isFinite(z)) return '?';
  return intl.formatNumber(Math.round(z * 100) / 100, { maximumFractionDigits: 2 });
}

/**
 * A model's size, width (X) × depth (Y on the bed) × height (Z on the bed), in millimetres: "20 × 20 × 20 mm"
 * ("20,4 × 7,3 × 0,5 mm" in German); English unless an `intl` of another locale is given.
 */
export function formatModelSize(size: { width: number; depth: number; height: number }, intl: Words = englishIntl()): string {
  return intl.formatMessage({ id: 'design.model.size' }, {
    width: formatMillimetres(size.width, intl), depth: formatMillimetres(size.depth, intl), height: formatMillimetres(size.height, intl),
  });
}

/**
 * Grid of the print bed under a model: square, a whole number of cells (10 mm, as printers' beds are marked; 1 mm
 * under a model smaller than 10 mm, 100 mm over one larger than a metre), at least half again the model's footprint.
 */
export function bedGrid(width: number, depth: number): { size: number; divisions: number } {
  const footprint = Math.max(width, depth, 0);
  const cell = footprint > 1000 ? 100 : footprint > 10 ? 10 : 1;
  const divisions = Math.max(4, Math.ceil((footprint * 1.5) / cell));
  return { size: divisions * cell, divisions };
}

/** The layer shown when the slider reads `value`, kept within the file's layers (1-based, as a slicer counts). */
export function clampLayer(value: number, layers: number): number {
  if (layers <= 0) return 0;
  if (!Number.isFinite(value)) return layers;
  return Math.min(layers, Math.max(1, Math.round(value)));
}
