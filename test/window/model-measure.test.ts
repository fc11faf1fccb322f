import { describe, expect, it } from 'vitest';
import {
  bedGrid, clampLayer, formatLayerHeight, formatMillimetres, formatModelSize, isViewableModelType, isZUp, threeMfUnitScale, unitScaleOf,
} from '../../renderer/src/views/design/model-measure';

describe('the 3D view\'s measures', () => {
  it('shows the model types makers share, whatever the case of their extension', () => {
    for (const type of ['stl', 'OBJ', '3mf', 'amf', 'ply', 'gltf', 'GLB', 'gcode']) expect(isViewableModelType(type)).toBe(true);
    for (const type of ['', 'step', 'f3d', 'scad', 'zip', 'exe', 'png']) expect(isViewableModelType(type)).toBe(false);
  });

  it('turns Z-up types (printers\' and CAD\'s) and leaves Y-up ones (glTF, OBJ) and G-code (turned as drawn)', () => {
    expect(['stl', '3MF', 'amf', 'ply'].map(isZUp)).toEqual([true, true, true, true]);
    expect(['gltf', 'glb', 'obj', 'gcode'].map(isZUp)).toEqual([false, false, false, false]);
  });

  it('honours 3MF\'s units (millimetre when absent) and refuses one the specification does not name', () => {
    expect(threeMfUnitScale(null)).toBe(1);
    expect(threeMfUnitScale('')).toBe(1);
    expect(threeMfUnitScale('millimeter')).toBe(1);
    expect(threeMfUnitScale('micron')).toBe(0.001);
    expect(threeMfUnitScale('centimeter')).toBe(10);
    expect(threeMfUnitScale('inch')).toBe(25.4);
    expect(threeMfUnitScale('foot')).toBe(304.8);
    expect(threeMfUnitScale('meter')).toBe(1000);
    expect(threeMfUnitScale('furlong')).toBeNull();
  });

  it('reads glTF in metres, and unitless types in millimetres', () => {
    expect(unitScaleOf('glb')).toBe(1000);
    expect(unitScaleOf('GLTF')).toBe(1000);
    for (const type of ['stl', 'obj', 'ply', 'gcode']) expect(unitScaleOf(type)).toBe(1);
  });

  it('writes sizes as a printer person reads them: W × D × H mm, to a tenth under 100 mm', () => {
    expect(formatModelSize({ width: 20, depth: 20.0000004, height: 19.99999 })).toBe('20 × 20 × 20 mm');
    expect(formatModelSize({ width: 20.44, depth: 7.25, height: 0.5 })).toBe('20.4 × 7.3 × 0.5 mm');
    expect(formatModelSize({ width: 250.4, depth: 1234.5, height: 100 })).toBe('250 × 1,235 × 100 mm');
    expect(formatMillimetres(Number.NaN)).toBe('?');
    expect(formatLayerHeight(0.35)).toBe('0.35');
    expect(formatLayerHeight(19.850000381)).toBe('19.85');
    expect(formatLayerHeight(20)).toBe('20');
  });

  it('puts a print bed\'s grid under the model: square, whole cells, half again its footprint', () => {
    expect(bedGrid(20, 20)).toEqual({ size: 40, divisions: 4 });
    expect(bedGrid(20, 10)).toEqual({ size: 40, divisions: 4 });
    expect(bedGrid(250, 210)).toEqual({ size: 380, divisions: 38 });
    expect(bedGrid(0.5, 0.2)).toEqual({ size: 4, divisions: 4 });
    expect(bedGrid(3000, 100)).toEqual({ size: 4500, divisions: 45 });
  });

  it('keeps the layer slider within the file\'s layers, counted from 1', () => {
    expect(clampLayer(0, 66)).toBe(1);
    expect(clampLayer(12.4, 66)).toBe(12);
    expect(clampLayer(99, 66)).toBe(66);
    expect(clampLayer(Number.NaN, 66)).toBe(66);
    expect(clampLayer(5, 0)).toBe(0);
  });
});
