import { isLicenseCode, LICENSES, type DesignCard, type LicenseView } from '../../../../shared';
import { attributionOf } from '../../cache/attribution';
import type { DesignSummary } from '../../cache/design-reads';
import { imageAddress } from '../file-addresses';

export function licenseView(code: string | null): LicenseView | null {
  return isLicenseCode(code) ? { ...LICENSES[code] } : null;
}

const isoOf = (value: string | null) => {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/**
 * A design as a card. Rule 2: the attribution comes with it, naming the author the cache (or `authors`, resolved
 * through the users endpoint) knows; when the license needs one and the author is unknown, it says unavailable.
 */
export function designCard(summary: DesignSummary, authors: ReadonlyMap<number, string> = new Map()): DesignCard {
  const license = licenseView(summary.license);
  const screenName = summary.author || (summary.userId !== null ? authors.get(summary.userId) ?? '' : '');
  return {
    id: summary.id,
    slug: summary.slug,
    name: summary.name,
    excerpt: summary.excerpt,
    author: { id: summary.userId, screenName: screenName || null },
    license,
    attribution: attributionOf(summary.name, screenName, license),
    state: summary.state,
    own: summary.own,
    thumbnailUrl: summary.coverImageId !== null ? imageAddress(summary.coverImageId, 'grid') : null,
    createdAt: isoOf(summary.createdAt),
    updatedAt: isoOf(summary.updatedAt),
    checkedAt: summary.checkedAt ? new Date(summary.checkedAt).toISOString() : null,
    keptOffline: summary.keptOffline,
  };
}
