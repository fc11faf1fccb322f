import type { Document, Image } from '../../../shared';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { serviceSha1 } from '../api/tolerant-readers';
import type { BaseFile } from '../sync-state/base-files';

/** An image or document of an own design, as the service listed it. */
export interface RemoteFile {
  kind: 'image' | 'document';
  id: number;
  name: string;
  updatedAt: string | null;
  url: string | null;
  /** The SHA-1 of the content when the service tells it (a document's modelhash). */
  sha1: string | null;
}

/**
 * The files of one design as the service listed them, and when that listing was asked for. A listing is a snapshot:
 * what the queue sent, renamed or deleted after `listedAt` may be missing from it, or still in it, without any change
 * made on the service by someone else.
 */
export interface DesignListing {
  folder: string;
  designId: number;
  listedAt: number;
  files: Map<string, RemoteFile>;
}

export const remoteKey = (kind: 'image' | 'document', id: number) => `${kind}:${id}`;

function toRemote(kind: 'image' | 'document', file: Image | Document): RemoteFile {
  const url = (file.file as { url?: string | null } | null)?.url ?? null;
  return {
    kind, id: file.id, name: file.name, updatedAt: file.updated_at ?? null, url,
    sha1: kind === 'document' ? serviceSha1(file) : null,
  };
}

/** Reads every image and document of a design (every page of both lists), noting the time before the first request. */
export async function readDesignListing(
  client: ServiceClient, folder: string, designId: number, now: () => number, signal?: AbortSignal,
): Promise<DesignListing> {
  const listedAt = now();
  const [images, documents] = await Promise.all([client.listImages(designId, signal), client.listDocuments(designId, signal)]);
  const files = new Map<string, RemoteFile>();
  for (const image of images) files.set(remoteKey('image', image.id), toRemote('image', image));
  for (const document of documents) files.set(remoteKey('document', document.id), toRemote('document', document));
  return { folder, designId, listedAt, files };
}

/**
 * Whether a listing may judge a synced file: not when the file was recorded as synced (uploaded, replaced, renamed,
 * downloaded) at or after the moment the listing was asked for, since the listing may not know of that yet.
 */
export function listingCanJudge(listing: DesignListing, base: BaseFile): boolean {
  return base.syncedAt < listing.listedAt;
}

export type GoneCheck = 'gone' | 'still-there' | 'unknown';

/**
 * Before a synced file is taken for deleted on the service because a listing no longer has it, a read of the item
 * itself must say it is gone (404). A listing read in part, or one older than an upload, never moves a file.
 * Offline, cancelled or a refused sign-in are thrown (the pass stops); any other problem is 'unknown' (tried later).
 */
export async function confirmGoneRemotely(client: ServiceClient, base: BaseFile, signal?: AbortSignal): Promise<GoneCheck> {
  try {
    if (base.kind === 'image') await client.getImage(base.designId, base.remoteId, signal);
    else await client.getDocument(base.designId, base.remoteId, signal);
    return 'still-there';
  } catch (error) {
    if (isServiceError(error, 'not-found')) return 'gone';
    if (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') || isServiceError(error, 'token-rejected')) throw error;
    return 'unknown';
  }
}
