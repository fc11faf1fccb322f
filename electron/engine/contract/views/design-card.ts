import { isLicenseCode, LICENSES, type DesignCard, type LicenseView } from '../../../../shared';
import { attributionOf } from '../../cache/attribution';
import type { DesignSummary } from '../../cache/design-reads';
import type { GeneratedCover } from '../../cache/generated-thumbnails';
import { imageAddress } from '../file-addresses';
import { generatedThumbnailAddress, thumbnailModelAddress } from '../generated-thumbnail-files';

export function licenseView(code: string | null): LicenseView | null {
  return isLicenseCode(code) ? { ...LICENSES[code] } : null;
}

const isoOf = (value: string | null) => {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/**
 * The card's picture: its cover image; else (`covers`: generatedCovers of the cache) the picture made here from its
 * first model, or that model for the window to make one from; else none. A model that could not be drawn is not
 * offered again.
 */
function thumbnailOf(summary: DesignSummary, cover: GeneratedCover | undefined): Pick<DesignCard, 'thumbnailUrl' | 'thumbnailGenerated' | 'thumbnailModel'> {
  if (summary.coverImageId !== null) return { thumbnailUrl: imageAddress(summary.coverImageId, 'grid'), thumbnailGenerated: false, thumbnailModel: null };
  if (!cover || cover.generated?.problem) return { thumbnailUrl: null, thumbnailGenerated: false, thumbnailModel: null };
  const { model, generated } = cover;
  return {
    thumbnailUrl: generated ? generatedThumbnailAddress(summary.id, generated.madeAt) : null,
    thumbnailGenerated: generated !== null,
    thumbnailModel: { documentId: model.documentId, fileName: model.fileName, type: model.type, modelUrl: thumbnailModelAddress(model.documentId), version: model.version },
  };
}

/**
 * A design as a card. Rule 2: the attribution comes with it, naming the author the cache (or `authors`, resolved
 * through the users endpoint) knows; when the license needs one and the author is unknown, it says unavailable.
 */
export function designCard(summary: DesignSummary, authors: ReadonlyMap<number, string> = new Map(), covers?: ReadonlyMap<number, GeneratedCover>): DesignCard {
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
    ...thumbnailOf(summary, covers?.get(summary.id)),
    createdAt: isoOf(summary.createdAt),
    updatedAt: isoOf(summary.updatedAt),
    checkedAt: summary.checkedAt ? new Date(summary.checkedAt).toISOString() : null,
    keptOffline: summary.keptOffline,
  };
}
