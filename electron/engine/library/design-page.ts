import { basedOnText, designPageUrl } from '../cache/attribution';
import { childListsCheckedAt } from '../cache/child-reads';
import type { DesignSummary } from '../cache/design-reads';
import { renditionUrl } from '../cache/design-reads';
import { peekCachedFile } from '../cache/file-cache';
import { generatedCovers, type GeneratedCover } from '../cache/generated-thumbnails';
import { cachedUser, type CachedUser } from '../cache/user-reads';
import type { KeptDesignStatus } from '../keep-offline/keep-offline';
import { resolveAuthors } from './author-names';
import { readDesign } from './design-reads';
import type { LibraryDeps } from './library-deps';
import { fileUrlOf } from './model-files';
import { EngineError } from '../runtime/engine-error';

/** One of a design's images as its page shows it. */
export interface DesignPageImage {
  id: number;
  name: string;
  /** Whether its large rendition is in the file cache (shown offline). */
  cached: boolean;
}

/** One of a design's documents as its page shows it. */
export interface DesignPageDocument {
  id: number;
  name: string;
  /** The document as the service sent it (what its kind is read from). */
  raw: Record<string, unknown>;
  /** Its file's address on the service, or null when it names none. */
  url: string | null;
  /** Its file's size: the file cache's copy's, else what the service said (HEAD), else null. */
  size: number | null;
  /** Whether the file cache holds its file (shown and opened offline). */
  cached: boolean;
}

/** Everything a design's page shows, read from the cache once its lists were brought up to date. */
export interface DesignPage {
  summary: DesignSummary;
  descriptionHtml: string;
  /** What it is based on (a remix's sources), in words; null when nothing. */
  basedOn: string | null;
  tags: string[];
  images: DesignPageImage[];
  documents: DesignPageDocument[];
  /** The authors its card credits (rule 2), by user id. */
  authors: Map<number, string>;
  /** Its picture made from its first model, when it has no image. */
  covers: Map<number, GeneratedCover>;
  /** Its author as the cache knows them, or null. */
  author: CachedUser | null;
  /** Its page on the service's web site (rule 1: a link to the design, never to its files), or null. */
  pageUrl: string | null;
  /** When its image and document lists were last checked with the service (epoch ms), or null. */
  listsCheckedAt: number | null;
  /** Its state when kept offline, else null. */
  kept: KeptDesignStatus | null;
}

const nameOf = (raw: Record<string, unknown>, fallback: string) => (typeof raw.name === 'string' ? raw.name : fallback);

/**
 * A design's page: the design read (brought up to date first when the service can be asked, else as the cache has
 * it; 'not-cached' when neither has it), the authors it credits resolved, the sizes of its files not here asked, and a
 * kept design whose lists changed brought again.
 */
export async function designPage(deps: LibraryDeps, id: number | string, signal: AbortSignal): Promise<DesignPage> {
  const cached = await readDesign(deps, id, signal);
  if (!cached) throw new EngineError({ kind: 'not-cached', message: `The design ${JSON.stringify(String(id))} is not in the cache, and the service cannot be asked now.` });
  const { summary } = cached;
  const reader = deps.cache.reader;
  const authors = await resolveAuthors(deps, [summary]);
  const local = (url: string | null) => (url === null ? null : peekCachedFile(reader, deps.fileRoot, url));
  const documents = cached.documents.flatMap((raw) => {
    if (typeof raw.id !== 'number') return [];
    const url = fileUrlOf(raw);
    return [{ id: raw.id, name: nameOf(raw, `Document ${raw.id}`), raw, url, stored: local(url) }];
  });
  const uncached = documents.flatMap((document) =>
    document.url !== null && document.stored === null ? [{ url: document.url, version: typeof document.raw.updated_at === 'string' ? document.raw.updated_at : null }] : []);
  const sizes = await deps.documentSizes(uncached, signal);
  // Read after its lists were brought up to date: a kept design whose files changed is brought again (nothing when all are here).
  if (summary.keptOffline) deps.keepOffline.designsChanged({ ids: [summary.id], all: false });
  const webUrl = deps.webUrl();
  return {
    summary,
    descriptionHtml: typeof cached.design.description === 'string' ? cached.design.description : '',
    basedOn: basedOnText(cached.design),
    tags: cached.tags,
    images: cached.images.map((image) => ({ id: image.id, name: nameOf(image.raw, `Image ${image.id}`), cached: local(renditionUrl(image.raw, 'large')) !== null })),
    documents: documents.map(({ stored, ...document }) => ({
      ...document, size: stored?.size ?? (document.url ? sizes.get(document.url) ?? null : null), cached: stored !== null,
    })),
    authors,
    covers: generatedCovers(reader, [summary]),
    author: summary.userId !== null ? cachedUser(reader, summary.userId) : null,
    pageUrl: webUrl ? designPageUrl(webUrl, summary) : null,
    listsCheckedAt: childListsCheckedAt(reader, summary.id),
    kept: deps.keepOffline.status(summary.id),
  };
}
