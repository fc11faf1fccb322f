import { KNOWN_SLICERS, type SlicerFileType } from './known-slicers';
import { linuxSlicers } from './linux-slicers';
import { macSlicers } from './mac-slicers';
import type { Slicer, SlicerEnvironment } from './slicer';
import { windowsSlicers } from './windows-slicers';

const rank = (slicer: Slicer) => {
  const index = KNOWN_SLICERS.findIndex((known) => known.key === slicer.known);
  return index < 0 ? KNOWN_SLICERS.length : index;
};

/** Two entries under one name (PrusaSlicer from a package and from a download) are told apart by where they are. */
function distinctNames(slicers: Slicer[]): Slicer[] {
  const counts = new Map<string, number>();
  for (const slicer of slicers) counts.set(slicer.name, (counts.get(slicer.name) ?? 0) + 1);
  return slicers.map((slicer) => (counts.get(slicer.name)! > 1 ? { ...slicer, name: `${slicer.name} (${slicer.id.replace(/^[a-z]+:/, '')})` } : slicer));
}

/**
 * The slicers installed on this computer (and, on Linux, any app whose desktop entry says it opens model files):
 * the known ones first in a fixed order (PrusaSlicer, OrcaSlicer, Bambu Studio, UltiMaker Cura, SuperSlicer),
 * then the others by name. Other systems than Linux, macOS and Windows: none (the system default remains).
 */
export async function findSlicers(environment: SlicerEnvironment): Promise<Slicer[]> {
  const found = environment.platform === 'darwin' ? macSlicers(environment)
    : environment.platform === 'win32' ? await windowsSlicers(environment)
      : environment.platform === 'linux' || environment.platform === 'freebsd' || environment.platform === 'openbsd' ? linuxSlicers(environment)
        : [];
  const sorted = [...found].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  return distinctNames(sorted);
}

/** The slicers that open a file type. */
export const slicersFor = (slicers: readonly Slicer[], type: string): Slicer[] => slicers.filter((slicer) => slicer.types.includes(type.toLowerCase() as SlicerFileType));
