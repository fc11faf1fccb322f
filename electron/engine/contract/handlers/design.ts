import { designPageUrl } from '../../cache/attribution';
import { getCachedDesign, renditionUrl, type CachedDesign } from '../../cache/design-reads';
import { isServiceError } from '../../api/service-error';
import { refreshDesignFiles } from '../../cache/child-lists';
import { childListsCheckedAt } from '../../cache/child-reads';
import { upsertDesign } from '../../cache/design-writes';
import { peekCachedFile } from '../../cache/file-cache';
import { cachedUser } from '../../cache/user-reads';
import type { Engine } from '../../runtime/engine';
import { EngineError } from '../../runtime/engine-error';
import { documentSizes } from '../document-sizes';
import { documentAddress, fileType, imageAddress, PREVIEW_TYPES } from '../file-addresses';
import type { Handlers } from '../handler-types';
import { resolveAuthors } from '../resolve-authors';
import { authorView } from '../views/author-view';
import { designCard } from '../views/design-card';
import { iso } from '../views/iso';
import { engineLog } from '../../log/engine-log';

/** How long opening a design may wait for the service before it shows what the cache has. */
const READ_TIMEOUT_MS = 5_000;

const fileUrlOf = (document: Record<string, unknown>): string | null => {
  const url = (document.file as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? url : null;
};

const canAsk = (engine: Engine) => engine.serviceUrl() !== null && engine.connectivity.state.online;

/**
 * The design from the cache, its images and documents brought up to date first when the service can be reached
 * (conditional GETs: two 304s when nothing changed); a design the cache lacks is read from the service and stored,
 * so it works offline next time.
 */
async function readDesign(engine: Engine, id: number | string, signal: AbortSignal): Promise<CachedDesign | null> {
  const read = () => getCachedDesign(engine.cache.reader, id, { fileRoot: engine.profile.fileCache });
  let cached = read();
  if (!canAsk(engine)) return cached;
  const client = engine.interactiveClient();
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(READ_TIMEOUT_MS)]);
  try {
    if (!cached) upsertDesign(engine.cache.db, await client.getDesign(id, timeout), 'list', Date.now());
    cached = read();
    if (!cached) return null;
    await refreshDesignFiles(client, engine.cache.db, cached.summary.id, timeout);
  } catch (error) {
    // Offline or slow: what the cache has is shown (or 'not-cached' below). Gone from the service: said so.
    if (!cached && isServiceError(error, 'not-found')) throw new EngineError({ kind: 'not-found', message: `There is no design ${JSON.stringify(String(id))} on the service.` });
    (isServiceError(error, 'offline') ? engineLog.info : engineLog.warn).call(engineLog, 'contract', `design ${JSON.stringify(String(id))}: the service could not be asked; the cached design is shown`, error);
  }
  return read();
}

export const DESIGN_HANDLERS: Handlers<'design.get' | 'design.openPage'> = {
  'design.get': async (engine, { id }, signal) => {
    const cached = await readDesign(engine, id, signal);
    if (!cached) throw new EngineError({ kind: 'not-cached', message: `The design ${JSON.stringify(String(id))} is not in the cache, and the service cannot be asked now.` });
    const { summary } = cached;
    const authors = await resolveAuthors(engine, [summary]);
    const fileRoot = engine.profile.fileCache;
    const isCached = (url: string | null) => url !== null && peekCachedFile(engine.cache.reader, fileRoot, url) !== null;
    const author = summary.userId !== null ? cachedUser(engine.cache.reader, summary.userId) : null;
    const serviceUrl = engine.serviceUrl();
    const uncached = cached.documents.flatMap((document) => {
      const url = fileUrlOf(document);
      return url && !isCached(url) ? [{ url, version: typeof document.updated_at === 'string' ? document.updated_at : null }] : [];
    });
    const sizes = await documentSizes(engine, uncached, signal);
    return {
      card: designCard(summary, authors),
      descriptionHtml: typeof cached.design.description === 'string' ? cached.design.description : '',
      tags: cached.tags,
      images: cached.images.map((image) => ({
        id: image.id,
        name: typeof image.raw.name === 'string' ? image.raw.name : `Image ${image.id}`,
        thumbnailUrl: imageAddress(image.id, 'grid'),
        largeUrl: imageAddress(image.id, 'large'),
        cached: isCached(renditionUrl(image.raw, 'large')),
      })),
      primaryImageId: summary.primaryImageId,
      documents: cached.documents.flatMap((document) => {
        if (typeof document.id !== 'number') return [];
        const name = typeof document.name === 'string' ? document.name : `Document ${document.id}`;
        const type = fileType(name);
        const url = fileUrlOf(document);
        const local = url ? peekCachedFile(engine.cache.reader, fileRoot, url) : null;
        const previewable = PREVIEW_TYPES.has(type);
        return [{
          id: document.id, name, type, size: local?.size ?? (url ? sizes.get(url) ?? null : null),
          isModel: previewable || document.file_contains_3d_model === true,
          previewUrl: previewable ? documentAddress(document.id, name) : null,
          cached: local !== null,
        }];
      }),
      author: author ? authorView(author.id, author.screenName, author.public) : null,
      pageUrl: serviceUrl ? designPageUrl(serviceUrl, summary) : null,
      listsCheckedAt: iso(childListsCheckedAt(engine.cache.reader, summary.id)),
    };
  },
  /** Rule 1: the design's page on the service, never its files; opened by the host when it can. */
  'design.openPage': async (engine, { id }) => {
    const cached = getCachedDesign(engine.cache.reader, id);
    const serviceUrl = engine.requireServiceUrl();
    const url = cached ? designPageUrl(serviceUrl, cached.summary) : designPageUrl(serviceUrl, { id: typeof id === 'number' ? id : 0, slug: typeof id === 'string' ? id : null });
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
