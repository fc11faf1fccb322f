import { join } from 'node:path';
import type { ServiceClient } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { engineLog } from '../log/engine-log';
import { readFolder, sha1File } from './local-files';
import type { SyncContext } from './sync-context';
import { isIgnoredName } from './sync-names';
import { said } from '../queue/said';

/** What became of the folder of a design gone from the service. */
export type DesignGoneOutcome = 'trashed' | 'kept' | 'still-there' | 'not-linked';

export interface DesignGoneOptions {
  /** The service already said it is gone (own.delete got its answer): not asked again. */
  confirmed?: boolean;
  /** The signed-in user: a design that is someone else's now is gone for this folder too. */
  userId?: number | null;
  /** The design's name, for the activity line. */
  name?: string | null;
  signal?: AbortSignal;
}

/** Asks the service for the design itself: only a 404 (or another owner) makes it gone; a failed read decides nothing. */
async function goneOnService(client: ServiceClient, designId: number, userId: number | null, signal?: AbortSignal): Promise<boolean> {
  try {
    const design = await client.getDesign(designId, signal) as { user_id?: unknown };
    return userId !== null && typeof design.user_id === 'number' && design.user_id !== userId;
  } catch (error) {
    if (isServiceError(error, 'not-found')) return true;
    if (isServiceError(error, 'offline') || isServiceError(error, 'cancelled') || isServiceError(error, 'token-rejected')) throw error;
    engineLog.warn('sync', `design ${designId} is missing from your designs but could not be read`, error);
    return false;
  }
}

/**
 * What in a design's folder is not as it was last synced: files added or changed here, conflict copies, subfolders,
 * links. Ignored names (dotfiles, temporary files) do not count. Empty when the folder is gone.
 */
async function changedHere(ctx: SyncContext, rootPath: string, folder: string): Promise<string[]> {
  const entries = await readFolder(join(rootPath, folder));
  if (entries === null) return [];
  const bases = new Map(ctx.base.inFolder(folder).map((base) => [base.path, base]));
  const changed: string[] = [];
  for (const entry of entries) {
    if (isIgnoredName(entry.name)) continue;
    const path = `${folder}/${entry.name}`;
    const base = bases.get(path);
    if (entry.type !== 'file' || !base) changed.push(path);
    else if ((entry.size !== base.size || entry.mtimeMs !== Math.floor(base.mtimeMs)) && await sha1File(join(rootPath, path)) !== base.sha1) changed.push(path);
  }
  return changed;
}

/**
 * A design deleted on the service (or in the window): its folder is handled at once, never taken for a new design.
 * Everything in it as last synced: the folder goes to the trash (recoverable), said in the activity list. Something
 * added or changed here: the folder is kept as it is, no longer synced (state 'ignored': not proposed as a new
 * design, not scanned), and the person is told. Either way the queue's open items of that design are cancelled
 * (they can no longer be sent) and its synced state forgotten.
 */
export async function handleDesignGone(ctx: SyncContext, client: ServiceClient, designId: number, options: DesignGoneOptions = {}): Promise<DesignGoneOutcome> {
  const linked = ctx.folders.ofDesign(designId);
  if (!linked || linked.state !== 'linked') return 'not-linked';
  if (!options.confirmed && !(await goneOnService(client, designId, options.userId ?? null, options.signal))) return 'still-there';
  const check = ctx.root.verify();
  if (!check.ok) {
    ctx.stop(check);
    return 'still-there';
  }
  const rootPath = check.root.path;
  const { folder } = linked;
  const name = options.name ?? folder;
  const changed = await changedHere(ctx, rootPath, folder);
  for (const item of ctx.queue.list({ states: ['waiting', 'attention', 'failed'] })) {
    if (item.designId === designId || item.folder === folder) ctx.queue.cancel(item.id);
  }
  const forget = () => {
    for (const base of ctx.base.ofDesign(designId)) ctx.base.remove(base.path);
  };
  if (changed.length > 0) {
    forget();
    ctx.folders.setState(folder, 'ignored');
    const files = `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? '…' : ''}`;
    ctx.log('warning', said('activity.sync.designGoneKept', { name, folder, count: changed.length, files }), folder);
    return 'kept';
  }
  const there = await readFolder(join(rootPath, folder));
  const where = there === null ? null : await ctx.trash(join(rootPath, folder), rootPath);
  forget();
  ctx.folders.remove(folder);
  if (where === null) {
    ctx.log('info', said('activity.sync.designGoneFolderGone', { name, folder }), folder);
  } else {
    ctx.log('info', said('activity.sync.designGoneTrashed', { name, folder, where }), folder);
    ctx.emit({ type: 'trashed', path: folder, where });
  }
  return 'trashed';
}
