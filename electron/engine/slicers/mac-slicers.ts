import { statSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_SLICERS } from './known-slicers';
import type { Slicer, SlicerEnvironment } from './slicer';

/** The known slicers' app bundles in /Applications and ~/Applications (macOS), each bundle once. */
export function macSlicers(environment: SlicerEnvironment): Slicer[] {
  const slicers: Slicer[] = [];
  for (const known of KNOWN_SLICERS) {
    for (const folder of environment.applicationFolders) {
      for (const bundleName of known.bundles) {
        const bundle = join(folder, bundleName);
        let isBundle = false;
        try {
          isBundle = statSync(bundle).isDirectory() && statSync(join(bundle, 'Contents')).isDirectory();
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') environment.log(`${bundle} cannot be read`, error);
        }
        if (!isBundle) continue;
        const name = slicers.some((slicer) => slicer.known === known.key) ? `${known.name} (${folder})` : known.name;
        slicers.push({ id: `app:${bundle}`, name, known: known.key, types: [...known.types], where: bundle, launch: { kind: 'app-bundle', bundle } });
      }
    }
  }
  return slicers;
}
