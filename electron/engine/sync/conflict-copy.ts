import { resolve, sep } from 'node:path';
import { statEntry } from './local-files';
import type { SyncContext } from './sync-context';
import { said } from '../queue/said';

/**
 * The person keeps the service's version of a conflicted file: their copy (a path relative to the sync folder) goes
 * to the trash, where they can still get it back. Resolves with where it went, in words.
 */
export async function discardConflictCopy(ctx: SyncContext, path: string): Promise<string> {
  const root = ctx.root.current();
  if (!root) throw new Error('No sync folder is chosen: there is no copy to move to the trash.');
  const absolute = resolve(root.path, path);
  if (!absolute.startsWith(resolve(root.path) + sep)) throw new Error(`${path} is not inside the sync folder.`);
  const entry = await statEntry(absolute);
  if (!entry) return 'nowhere: it was already gone';
  const where = await ctx.trash(absolute, root.path);
  ctx.log('info', said('activity.sync.copyTrashed', { path, where }), path);
  return where;
}
