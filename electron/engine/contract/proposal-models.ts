import { lstat, readdir, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { ProposalModelView } from '../../../shared';
import { isViewableModelType } from '../../../shared/files/model-files';
import { MAX_THUMBNAIL_MODEL_BYTES } from '../library/generated-thumbnails';
import { engineLog } from '../log/engine-log';
import type { QueueService } from '../queue/queue-service';
import type { SyncService } from '../runtime/sync-service';

/** Where a proposal's folder is found: its queue item, and the sync folder. */
export interface ProposalSources {
  queue: Pick<QueueService, 'find'>;
  sync: Pick<SyncService, 'folder'>;
}
import type { ServedFile } from './contract-endpoint';

/**
 * A folder proposed as a new design (a queue item waiting for the person to confirm it) is no design yet: its model
 * is read from the sync folder itself, at `/files/proposals/<queue item>/<file name>`, only for a file directly in
 * that folder, under the sync folder, of a type the window draws, at most MAX_THUMBNAIL_MODEL_BYTES. Nothing is kept:
 * the window draws its picture while the proposal is shown.
 */
const RANK: Record<string, number> = { stl: 0, '3mf': 1, obj: 2, amf: 3, ply: 4, gltf: 5, glb: 6, gcode: 9 };
const PREFIX = '/files/proposals/';

const typeOf = (name: string) => extname(name).slice(1).toLowerCase();
export const proposalModelAddress = (itemId: number, fileName: string) => `${PREFIX}${itemId}/${encodeURIComponent(fileName)}`;

/** The proposal's folder, resolved inside the sync folder; null when the item is no proposal or the folder is gone. */
async function proposalFolder(sources: ProposalSources, itemId: number): Promise<string | null> {
  const item = sources.queue.find(itemId);
  if (!item || item.attention !== 'confirm-design' || !item.folder) return null;
  const root = sources.sync.folder();
  if (!root) return null;
  const rootReal = await realpath(root.path).catch(() => null);
  const folderReal = await realpath(join(root.path, item.folder)).catch(() => null);
  if (!rootReal || !folderReal || !folderReal.startsWith(rootReal + sep)) return null;
  return folderReal;
}

/** A regular file (no link) directly in the folder, of a drawn type, small enough; its size, or null. */
async function modelFileSize(folder: string, name: string): Promise<number | null> {
  if (name.startsWith('.') || /[/\\]/.test(name) || !isViewableModelType(typeOf(name))) return null;
  const info = await lstat(join(folder, name)).catch(() => null);
  return info?.isFile() && info.size > 0 && info.size <= MAX_THUMBNAIL_MODEL_BYTES ? info.size : null;
}

/** The model a proposed folder's picture is drawn from (meshes before G-code, then by name), or null. */
export async function proposalModel(sources: ProposalSources, itemId: number): Promise<ProposalModelView | null> {
  const folder = await proposalFolder(sources, itemId);
  if (!folder) return null;
  const names = (await readdir(folder)).filter((name) => isViewableModelType(typeOf(name))).sort((a, b) => RANK[typeOf(a)]! - RANK[typeOf(b)]! || a.localeCompare(b));
  for (const name of names) {
    if ((await modelFileSize(folder, name)) !== null) return { fileName: name, type: typeOf(name), modelUrl: proposalModelAddress(itemId, name) };
  }
  return null;
}

/** The file behind a proposal's model address, or null (not one, or not allowed: see above). */
export async function serveProposalModel(sources: ProposalSources, address: string): Promise<ServedFile | null> {
  const match = /^\/files\/proposals\/(\d{1,15})\/([^/\\]+)$/.exec(address);
  if (!match) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  try {
    const folder = await proposalFolder(sources, Number(match[1]));
    const size = folder ? await modelFileSize(folder, name) : null;
    return folder && size !== null ? { path: join(folder, name), contentType: 'application/octet-stream', size } : null;
  } catch (error) {
    engineLog.warn('thumbnails', `the model ${name} of a proposed folder could not be read`, error);
    return null;
  }
}
