import { CACHED_RENDITIONS, renditionUrl, type CachedDesign } from '../cache/design-reads';

/** One file a design kept offline needs: a rendition of one of its images, or one of its documents. */
export interface KeptFile {
  url: string;
  /** The version the file cache must hold it at (its image's or document's `updated_at`), as the window asks for it. */
  version: string | null;
  kind: 'image' | 'document';
  /** What the person knows it by (the image's or document's name). */
  name: string;
}

const versionOf = (raw: Record<string, unknown>) => (typeof raw.updated_at === 'string' ? raw.updated_at : null);
const nameOf = (raw: Record<string, unknown>, fallback: string) => (typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name : fallback);

/**
 * Every file a kept design needs, from its cached lists: each image's renditions the window shows (grid and large)
 * and each document's file. Files without an address are left out (nothing to fetch); a url listed twice is one file.
 */
export function keptFilesOf(design: Pick<CachedDesign, 'images' | 'documents'>): KeptFile[] {
  const files = new Map<string, KeptFile>();
  for (const image of design.images) {
    for (const rendition of CACHED_RENDITIONS) {
      const url = renditionUrl(image.raw, rendition);
      if (url && !files.has(url)) files.set(url, { url, version: versionOf(image.raw), kind: 'image', name: nameOf(image.raw, `Image ${image.id}`) });
    }
  }
  for (const document of design.documents) {
    const url = (document.file as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string' && url !== '' && !files.has(url)) {
      files.set(url, { url, version: versionOf(document), kind: 'document', name: nameOf(document, `Document ${String(document.id)}`) });
    }
  }
  return [...files.values()];
}

/** What a check of a kept design must do: the files to download (missing, or held at another version). */
export interface KeptFilesPlan {
  needed: KeptFile[];
  missing: KeptFile[];
}

/** Decides, from what the design needs and what the file cache holds (`has(url, version)`), which files to fetch. */
export function planKeptFiles(needed: readonly KeptFile[], has: (url: string, version: string | null) => boolean): KeptFilesPlan {
  return { needed: [...needed], missing: needed.filter((file) => !has(file.url, file.version)) };
}
