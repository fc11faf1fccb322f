import { documentAddress, documentKind, imageAddress } from '../file-addresses';
import type { Handlers } from '../handler-types';
import { authorView } from '../views/author-view';
import { designCard } from '../views/design-card';
import { iso } from '../views/iso';
import { keptDesignView } from '../views/kept-design-view';
import { engineLog } from '../../log/engine-log';

export const DESIGN_HANDLERS: Handlers<'design.get' | 'design.openPage'> = {
  /** The design's page, assembled by the library (library/design-page.ts); here only its view. */
  'design.get': async ({ library }, { id }, signal) => {
    const page = await library.designPage(id, signal);
    const { summary, author } = page;
    return {
      card: designCard(summary, page.authors, page.covers),
      descriptionHtml: page.descriptionHtml,
      basedOn: page.basedOn,
      tags: page.tags,
      images: page.images.map((image) => ({
        id: image.id, name: image.name, thumbnailUrl: imageAddress(image.id, 'grid'), largeUrl: imageAddress(image.id, 'large'), cached: image.cached,
      })),
      primaryImageId: summary.coverImageId,
      documents: page.documents.map((document) => {
        const { type, isModel, previewable } = documentKind(document.raw);
        return {
          id: document.id, name: document.name, type, size: document.size, isModel,
          previewUrl: previewable ? documentAddress(document.id, document.name) : null,
          cached: document.cached,
        };
      }),
      author: author ? authorView(author.id, author.screenName, author.public) : null,
      pageUrl: page.pageUrl,
      listsCheckedAt: iso(page.listsCheckedAt),
      kept: page.kept ? keptDesignView(page.kept) : null,
    };
  },
  /** Rule 1: the design's page on the service, never its files; opened by the host when it can. */
  'design.openPage': async ({ library, connection, lifecycle }, { id }) => {
    connection.requireServiceUrl();
    const url = library.designPageAddress(id)!;
    if (!lifecycle.openBrowser) return { url, opened: false };
    try {
      await lifecycle.openBrowser(url);
      return { url, opened: true };
    } catch (error) {
      // The window then shows the address to open by hand.
      engineLog.warn('contract', `the browser could not be opened on ${url}`, error);
      return { url, opened: false };
    }
  },
};
