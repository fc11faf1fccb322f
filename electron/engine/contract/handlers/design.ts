import { basedOnText, designPageUrl } from '../../cache/attribution';
import { getCachedDesign, renditionUrl } from '../../cache/design-reads';
import { childListsCheckedAt } from '../../cache/child-reads';
import { generatedCovers } from '../../cache/generated-thumbnails';
import { peekCachedFile } from '../../cache/file-cache';
import { cachedUser } from '../../cache/user-reads';
import { documentSizes } from '../document-sizes';
import { documentAddress, documentFileUrl, documentKind, imageAddress } from '../file-addresses';
import type { Handlers } from '../handler-types';
import { resolveAuthors } from '../resolve-authors';
import { authorView } from '../views/author-view';
import { designCard } from '../views/design-card';
import { iso } from '../views/iso';
import { keptDesignView } from '../views/kept-design-view';
import { engineLog } from '../../log/engine-log';

export const DESIGN_HANDLERS: Handlers<'design.get' | 'design.openPage'> = {
  'design.get': async (engine, { id }, signal, { library }) => {
    const cached = await library.design(id, signal);
    const { summary } = cached;
    const authors = await resolveAuthors(engine, [summary]);
    const fileRoot = engine.profile.fileCache;
    const isCached = (url: string | null) => url !== null && peekCachedFile(engine.cache.reader, fileRoot, url) !== null;
    const author = summary.userId !== null ? cachedUser(engine.cache.reader, summary.userId) : null;
    const webUrl = engine.webUrl();
    const uncached = cached.documents.flatMap((document) => {
      const url = documentFileUrl(document);
      return url && !isCached(url) ? [{ url, version: typeof document.updated_at === 'string' ? document.updated_at : null }] : [];
    });
    const sizes = await documentSizes(engine, uncached, signal);
    // Read after its lists were brought up to date: a kept design whose files changed is brought again (nothing when all are here).
    if (summary.keptOffline) engine.keepOffline.designsChanged({ ids: [summary.id], all: false });
    const kept = engine.keepOffline.status(summary.id);
    return {
      card: designCard(summary, authors, generatedCovers(engine.cache.reader, [summary])),
      descriptionHtml: typeof cached.design.description === 'string' ? cached.design.description : '',
      basedOn: basedOnText(cached.design),
      tags: cached.tags,
      images: cached.images.map((image) => ({
        id: image.id,
        name: typeof image.raw.name === 'string' ? image.raw.name : `Image ${image.id}`,
        thumbnailUrl: imageAddress(image.id, 'grid'),
        largeUrl: imageAddress(image.id, 'large'),
        cached: isCached(renditionUrl(image.raw, 'large')),
      })),
      primaryImageId: summary.coverImageId,
      documents: cached.documents.flatMap((document) => {
        if (typeof document.id !== 'number') return [];
        const name = typeof document.name === 'string' ? document.name : `Document ${document.id}`;
        const { type, isModel, previewable } = documentKind(document);
        const url = documentFileUrl(document);
        const local = url ? peekCachedFile(engine.cache.reader, fileRoot, url) : null;
        return [{
          id: document.id, name, type, size: local?.size ?? (url ? sizes.get(url) ?? null : null),
          isModel,
          previewUrl: previewable ? documentAddress(document.id, name) : null,
          cached: local !== null,
        }];
      }),
      author: author ? authorView(author.id, author.screenName, author.public) : null,
      pageUrl: webUrl ? designPageUrl(webUrl, summary) : null,
      listsCheckedAt: iso(childListsCheckedAt(engine.cache.reader, summary.id)),
      kept: kept ? keptDesignView(kept) : null,
    };
  },
  /** Rule 1: the design's page on the service, never its files; opened by the host when it can. */
  'design.openPage': async (engine, { id }) => {
    const cached = getCachedDesign(engine.cache.reader, id);
    engine.requireServiceUrl();
    const webUrl = engine.webUrl()!;
    const url = cached ? designPageUrl(webUrl, cached.summary) : designPageUrl(webUrl, { id: typeof id === 'number' ? id : 0, slug: typeof id === 'string' ? id : null });
    if (!engine.openBrowser) return { url, opened: false };
    try {
      await engine.openBrowser(url);
      return { url, opened: true };
    } catch (error) {
      // The window then shows the address to open by hand.
      engineLog.warn('contract', `the browser could not be opened on ${url}`, error);
      return { url, opened: false };
    }
  },
};
