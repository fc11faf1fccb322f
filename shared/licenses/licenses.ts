/** Spec §2.5: the allowed values of a design's license. */
export const LICENSE_CODES = [
  'bsd', 'cc0', 'ccby', 'ccbyncnd', 'ccbyncsa', 'ccbynd', 'ccbysa', 'commercial', 'gplv3', 'lgpl',
] as const;
export type LicenseCode = (typeof LICENSE_CODES)[number];

export interface License {
  code: LicenseCode;
  title: string;
  meaning: string;
  /** Whether showing the design needs attribution to its author (rule of use 2). */
  attributionRequired: boolean;
  commercialUse: boolean;
  changesAllowed: boolean;
  shareAlike: boolean;
}

/**
 * Attribution is required for the Creative Commons BY family. BSD, GPL and LGPL require keeping the
 * copyright notice with copies of the work, which is attribution to the author; cc0 waives all rights;
 * a commercial license says nothing the spec shows, so we still credit the author but do not call it required.
 */
export const LICENSES: Readonly<Record<LicenseCode, License>> = {
  bsd: { code: 'bsd', title: 'BSD License', meaning: 'A permissive free-software license.', attributionRequired: true, commercialUse: true, changesAllowed: true, shareAlike: false },
  cc0: { code: 'cc0', title: 'CC0 1.0 (Public Domain Dedication)', meaning: 'Waives all rights.', attributionRequired: false, commercialUse: true, changesAllowed: true, shareAlike: false },
  ccby: { code: 'ccby', title: 'Creative Commons Attribution', meaning: 'Needs attribution.', attributionRequired: true, commercialUse: true, changesAllowed: true, shareAlike: false },
  ccbyncnd: { code: 'ccbyncnd', title: 'Creative Commons Attribution-NonCommercial-NoDerivatives', meaning: 'Non-commercial, no changes, attribution.', attributionRequired: true, commercialUse: false, changesAllowed: false, shareAlike: false },
  ccbyncsa: { code: 'ccbyncsa', title: 'Creative Commons Attribution-NonCommercial-ShareAlike', meaning: 'Non-commercial, attribution, share-alike.', attributionRequired: true, commercialUse: false, changesAllowed: true, shareAlike: true },
  ccbynd: { code: 'ccbynd', title: 'Creative Commons Attribution-NoDerivatives', meaning: 'Commercial use allowed, no changes, attribution.', attributionRequired: true, commercialUse: true, changesAllowed: false, shareAlike: false },
  ccbysa: { code: 'ccbysa', title: 'Creative Commons Attribution-ShareAlike', meaning: 'Commercial use allowed, attribution, share-alike.', attributionRequired: true, commercialUse: true, changesAllowed: true, shareAlike: true },
  commercial: { code: 'commercial', title: 'Commercial License', meaning: 'A commercial license.', attributionRequired: false, commercialUse: true, changesAllowed: false, shareAlike: false },
  gplv3: { code: 'gplv3', title: 'GNU General Public License v3', meaning: 'Copyleft free software, commercial use allowed.', attributionRequired: true, commercialUse: true, changesAllowed: true, shareAlike: true },
  lgpl: { code: 'lgpl', title: 'GNU Lesser General Public License', meaning: 'Free software that may be used within proprietary work.', attributionRequired: true, commercialUse: true, changesAllowed: true, shareAlike: false },
};

export function isLicenseCode(value: unknown): value is LicenseCode {
  return typeof value === 'string' && (LICENSE_CODES as readonly string[]).includes(value);
}

/** The license a design has when it is created without one. */
export const DEFAULT_LICENSE: LicenseCode = 'ccby';
