import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Document, Image } from '../../../../shared';
import { serviceSha1 } from '../../api/tolerant-readers';
import type { BaseFile } from '../../sync-state/base-files';
import type { JobContext } from '../job';

/**
 * Whether the service's copy of a synced file holds other content than the last synced state: a document's
 * modelhash tells at once; otherwise an unchanged updated_at means unchanged, and a moved one (a rename, or a new
 * file) is settled by hashing the service's file.
 */
export async function changedOnService(ctx: JobContext, remote: Image | Document, base: BaseFile): Promise<boolean> {
  const sha1 = serviceSha1(remote);
  if (sha1) return sha1 !== base.sha1;
  if ((remote.updated_at ?? null) === base.remoteUpdatedAt) return false;
  const url = (remote.file as { url?: string | null } | null)?.url;
  if (!url) return false;
  const response = await ctx.client.download(url, ctx.signal);
  if (!response.body) return false;
  const hash = createHash('sha1');
  for await (const chunk of Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)) hash.update(chunk as Buffer);
  return hash.digest('hex') !== base.sha1;
}
