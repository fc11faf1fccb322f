import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readFolder } from './local-files';
import type { SyncContext } from './sync-context';
import { designFolderName, nameKey, uniqueName } from './sync-names';
import { said } from '../queue/said';

/** An own design, as far as its folder is concerned. */
export interface OwnDesignRef {
  id: number;
  slug?: string | null;
  name?: string | null;
  created_at?: string | null;
}

/**
 * Makes a folder for each own design that has none, named from its slug (safe on every system, unique even on
 * a case-insensitive disk), and links it. A design linked before keeps its folder, even one the person removed.
 */
export async function ensureDesignFolders(ctx: SyncContext, designs: readonly OwnDesignRef[]): Promise<string[]> {
  const check = ctx.root.verify();
  if (!check.ok) {
    ctx.stop(check);
    return [];
  }
  for (const interrupted of ctx.folders.toMake()) {
    await mkdir(join(check.root.path, interrupted.folder), { recursive: true });
    ctx.folders.markMade(interrupted.folder);
  }
  const rows = ctx.folders.all();
  // A design being created from a folder right now gets linked to that folder, not a new one.
  const creating = rows.some((row) => row.state === 'creating');
  const taken = new Set(rows.map((row) => nameKey(row.folder)));
  for (const entry of (await readFolder(check.root.path)) ?? []) taken.add(nameKey(entry.name));
  const created: string[] = [];
  for (const design of designs) {
    if (ctx.folders.ofDesign(design.id)) continue;
    if (creating && design.created_at && Date.parse(design.created_at) > ctx.now() - 10 * 60_000) continue;
    const folder = uniqueName(designFolderName(design), (key) => taken.has(key), false);
    // Linked first: a crash before the folder exists leaves a link the next pass completes, never an unlinked folder.
    ctx.folders.linkToMake(folder, design.id);
    await mkdir(join(check.root.path, folder), { recursive: true });
    ctx.folders.markMade(folder);
    taken.add(nameKey(folder));
    ctx.log('info', said('activity.sync.folderMade', { folder, name: design.name ?? design.slug ?? design.id }), folder);
    ctx.emit({ type: 'folder-created', folder, designId: design.id });
    created.push(folder);
  }
  return created;
}

/**
 * The folder of an own design, made the way a pass makes it when it has none yet (the sync folder must be chosen and
 * there). Null when it cannot be made now (a design being created from a folder at this moment).
 */
export async function folderForDesign(ctx: SyncContext, design: OwnDesignRef): Promise<string | null> {
  const linked = ctx.folders.ofDesign(design.id);
  if (linked) return linked.folder;
  await ensureDesignFolders(ctx, [design]);
  return ctx.folders.ofDesign(design.id)?.folder ?? null;
}
