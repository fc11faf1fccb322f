/**
 * The slicers design-sync knows by name, with the file types each opens, and the MIME types of the model files a
 * desktop entry may say it opens. Any other app whose desktop entry lists one of these MIME types is offered too.
 */

/** The file types a slicer may be handed (lowercased extensions); never an executable. */
export type SlicerFileType = 'stl' | '3mf' | 'obj' | 'amf' | 'ply' | 'step' | 'stp' | 'gcode';

export interface KnownSlicer {
  /** A stable key ('prusaslicer'). */
  key: string;
  /** Its name as people know it. */
  name: string;
  /** Its desktop entry's Name, as its packages write it. */
  desktopName: RegExp;
  /** Its app bundle's names on macOS, in /Applications or ~/Applications. */
  bundles: readonly string[];
  /** Its name in the Windows uninstall list (DisplayName), and its program's file names there. */
  windowsName: RegExp;
  windowsExes: readonly string[];
  /** What it opens, whatever its entry lists (desktop entries often name fewer types than the app reads). */
  types: readonly SlicerFileType[];
}

const MESHES: readonly SlicerFileType[] = ['stl', '3mf', 'obj', 'amf', 'step', 'stp'];

export const KNOWN_SLICERS: readonly KnownSlicer[] = [
  {
    key: 'prusaslicer', name: 'PrusaSlicer', desktopName: /^PrusaSlicer$/i, bundles: ['PrusaSlicer.app'],
    windowsName: /^PrusaSlicer\b/i, windowsExes: ['prusa-slicer.exe'], types: [...MESHES, 'gcode'],
  },
  {
    key: 'orcaslicer', name: 'OrcaSlicer', desktopName: /^Orca ?Slicer$/i, bundles: ['OrcaSlicer.app'],
    windowsName: /^Orca ?Slicer\b/i, windowsExes: ['orca-slicer.exe', 'OrcaSlicer.exe'], types: MESHES,
  },
  {
    key: 'bambustudio', name: 'Bambu Studio', desktopName: /^Bambu ?Studio$/i, bundles: ['BambuStudio.app', 'Bambu Studio.app'],
    windowsName: /^Bambu ?Studio\b/i, windowsExes: ['bambu-studio.exe', 'BambuStudio.exe'], types: MESHES,
  },
  {
    key: 'cura', name: 'UltiMaker Cura', desktopName: /^(?:Ulti[Mm]aker )?Cura$/i, bundles: ['UltiMaker Cura.app', 'Ultimaker Cura.app'],
    windowsName: /^Ulti[Mm]aker Cura\b/i, windowsExes: ['UltiMaker-Cura.exe', 'Ultimaker-Cura.exe', 'Cura.exe'],
    types: ['stl', '3mf', 'obj', 'amf', 'ply', 'gcode'],
  },
  {
    key: 'superslicer', name: 'SuperSlicer', desktopName: /^Super ?Slicer$/i, bundles: ['SuperSlicer.app'],
    windowsName: /^Super ?Slicer\b/i, windowsExes: ['superslicer.exe', 'SuperSlicer.exe'], types: [...MESHES, 'gcode'],
  },
];

/** The MIME types model files go by (shared-mime-info's, IANA's, and those slicers' entries use), and their types. */
const MIME_TYPES: Readonly<Record<string, SlicerFileType>> = {
  'model/stl': 'stl', 'model/x.stl-ascii': 'stl', 'model/x.stl-binary': 'stl', 'application/sla': 'stl', 'application/vnd.ms-pki.stl': 'stl',
  'model/3mf': '3mf', 'application/vnd.ms-3mfdocument': '3mf', 'application/vnd.ms-package.3dmanufacturing-3dmodel+xml': '3mf',
  'model/obj': 'obj', 'application/prs.wavefront-obj': 'obj', 'model/x-wavefront-obj': 'obj', 'text/x-wavefront-obj': 'obj',
  'application/x-amf': 'amf', 'model/amf': 'amf',
  'application/x-ply': 'ply', 'application/ply': 'ply', 'model/x-ply': 'ply', 'model/ply': 'ply',
  'model/step': 'step', 'application/step': 'step', 'model/x-step': 'step', 'application/x-step': 'step',
  'text/x.gcode': 'gcode', 'text/x-gcode': 'gcode',
};

/** The file types the MIME types of a desktop entry stand for (others, images or URL schemes, are not ours). */
export function typesOfMimeTypes(mimeTypes: readonly string[]): SlicerFileType[] {
  const types = new Set<SlicerFileType>();
  for (const mime of mimeTypes) {
    const type = MIME_TYPES[mime.toLowerCase()];
    if (type) types.add(type);
  }
  if (types.has('step')) types.add('stp');
  return [...types];
}

export function knownSlicerByDesktopName(name: string): KnownSlicer | null {
  return KNOWN_SLICERS.find((slicer) => slicer.desktopName.test(name.trim())) ?? null;
}
