import type { IntlShape } from 'react-intl';
import type { LicenseView } from '../../../../shared';

/**
 * A license's name and what it means, in the window's language (design.license.*): the spec's codes are ours to
 * name; a license the engine hands over under a code the catalogs do not know keeps the words it came with.
 */
export function licenseTitle(intl: IntlShape, license: Pick<LicenseView, 'code' | 'title'>): string {
  return intl.formatMessage({ id: 'design.license.title' }, { code: license.code, title: license.title });
}

export function licenseMeaning(intl: IntlShape, license: Pick<LicenseView, 'code' | 'meaning'>): string {
  return intl.formatMessage({ id: 'design.license.meaning' }, { code: license.code, meaning: license.meaning });
}
