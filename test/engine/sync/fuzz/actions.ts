/**
 * What a person does in the sync fuzz test, outside the syncing process: changes in the folder, changes on the
 * service (through its HTTP interface, with the user's token), and confirmations of what waits for them. Each step
 * is resolved against the folder and the service as they are now, and recorded in the world model.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { confirmDeletion, confirmNewDesign } from '../../../../electron/engine/runtime/queue-actions';
import { runCliCapturing } from '../../../support/cli';
import { readSyncState, withQueue, type Faults, type FuzzPaths, type RemoteFile, type ServiceSide } from './driver';
import type { FileKind, FileSpec, Step } from './steps';
import { contentBytes, sha1, type LocalFile, type LocalIndex, type World } from './world';

export interface ActionContext { seed: number; paths: FuzzPaths; world: World; local: LocalIndex; service: ServiceSide; faults: Faults }

const CONFLICT_COPY = / \(conflicted copy \d{4}-\d{2}-\d{2} \d{4}( \d+)?\)/;
const at = <T>(list: readonly T[], fraction: number): T | null => (list.length === 0 ? null : list[Math.min(list.length - 1, Math.floor(fraction * list.length))]!);
const kindOfName = (name: string): FileKind => (/\.png$/i.test(name) ? 'image' : /\.exe$/i.test(name) ? 'refused' : 'document');
const here = (folder: string) => `f:${folder}`;

/** Carries out one step that is not about the syncing process; returns what it did, in words (null: nothing to do). */
export async function act(ctx: ActionContext, index: number, step: Step): Promise<string | null> {
  const { world, local, paths } = ctx;
  const pickFile = (folderAt: number, pick: number, copies = false): LocalFile | null =>
    at(local.files(at(local.folders(), folderAt) ?? '').filter((f) => copies || !CONFLICT_COPY.test(f.name)), pick);
  const elsewhere = (hash: string, except: (f: LocalFile) => boolean) => local.all().some((f) => f.sha1 === hash && !except(f));

  switch (step.do) {
    case 'add': {
      const folder = at(local.folders(), step.folder);
      if (!folder) return null;
      for (const file of step.files) await writeLocal(ctx, index, folder, file.name, file);
      return `added ${step.files.map((f) => f.name).join(', ')} to ${folder}`;
    }
    case 'new-folder': {
      mkdirSync(join(paths.root, step.name), { recursive: true });
      world.newFolders.add(step.name);
      for (const file of step.files) await writeLocal(ctx, index, step.name, file.name, file);
      return `made ${step.name} with ${step.files.length} files`;
    }
    case 'edit': {
      const file = pickFile(step.folder, step.pick);
      if (!file) return null;
      const hash = await writeLocal(ctx, index, file.folder, file.name, { name: file.name, kind: kindOfName(file.name), size: step.size, content: step.content });
      world.removedContent(file.sha1, `#${index} overwrote ${file.path}`, elsewhere(file.sha1, () => false));
      return `edited ${file.path} (${file.sha1.slice(0, 7)} → ${hash.slice(0, 7)})`;
    }
    case 'rename': {
      const file = pickFile(step.folder, step.pick);
      if (!file) return null;
      const name = `${step.to}${extname(file.name)}`;
      renameSync(join(paths.root, file.path), join(paths.root, file.folder, name));
      world.tookAway(file.path, index);
      world.placed(here(file.folder), name, file.sha1);
      return `renamed ${file.path} to ${name}`;
    }
    case 'move': {
      const file = pickFile(step.folder, step.pick);
      const to = at(local.folders().filter((f) => f !== file?.folder), step.toFolder);
      if (!file || !to || local.files(to).some((f) => f.name.toLowerCase() === file.name.toLowerCase())) return null;
      renameSync(join(paths.root, file.path), join(paths.root, to, file.name));
      world.tookAway(file.path, index);
      world.placed(here(to), file.name, file.sha1);
      return `moved ${file.path} to ${to}/`;
    }
    case 'delete': {
      const file = pickFile(step.folder, step.pick, true);
      if (!file) return null;
      rmSync(join(paths.root, file.path));
      world.tookAway(file.path, index);
      world.removedContent(file.sha1, `#${index} deleted ${file.path}`, elsewhere(file.sha1, () => false));
      return `deleted ${file.path}`;
    }
    case 'delete-folder': {
      const folder = at(local.folders(), step.folder);
      if (!folder) return null;
      const files = local.files(folder);
      rmSync(join(paths.root, folder), { recursive: true, force: true });
      for (const file of files) {
        world.tookAway(file.path, index);
        world.removedContent(file.sha1, `#${index} deleted the folder ${folder}`, elsewhere(file.sha1, () => false));
      }
      return `deleted the folder ${folder} (${files.length} files)`;
    }
    case 'remote-add':
    case 'remote-replace':
    case 'remote-rename':
    case 'remote-delete':
    case 'remote-design':
      return ctx.faults.lifted(() => actOnService(ctx, index, step));
    case 'confirm':
      return confirm(ctx, index, step);
    default:
      throw new Error(`not an action: ${step.do}`);
  }
}

async function writeLocal(ctx: ActionContext, index: number, folder: string, name: string, file: FileSpec): Promise<string> {
  const bytes = await contentBytes(ctx.seed, file.content, file.kind, file.size);
  writeFileSync(join(ctx.paths.root, folder, name), bytes);
  const hash = sha1(bytes);
  ctx.world.wrote(hash, here(folder), name, index, 'local');
  return hash;
}

async function actOnService(ctx: ActionContext, index: number, step: Step): Promise<string | null> {
  const { service, world, local } = ctx;
  const upload = async (designId: number, file: FileSpec, remoteId?: number): Promise<string> => {
    const bytes = await contentBytes(ctx.seed, file.content, file.kind, file.size);
    const dir = join(ctx.paths.scratch, String(index));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file.name), bytes);
    const what = { path: join(dir, file.name), fileName: file.name };
    if (remoteId === undefined) {
      if (file.kind === 'image') await service.api.uploadImage(designId, what, { name: file.name });
      else await service.api.uploadDocument(designId, what, { name: file.name });
    } else if (file.kind === 'image') await service.api.updateImage(designId, remoteId, {}, what);
    else await service.api.updateDocument(designId, remoteId, {}, what);
    return sha1(bytes);
  };
  if (step.do === 'remote-design') {
    const design = await service.api.createDesign({ name: step.name, excerpt: 'Made on the service by the sync fuzz test', license: 'cc0' });
    for (const file of step.files) if (file.kind !== 'refused') world.wrote(await upload(design.id, file), `d:${design.id}`, file.name, index, 'service');
    return `made the design "${step.name}" (#${design.id}) on the service`;
  }
  const designs = await service.designs();
  const design = at(designs, (step as { design: number }).design);
  if (!design) return null;
  if (step.do === 'remote-add') {
    if (step.file.kind === 'refused') return null;
    world.wrote(await upload(design.id, step.file), `d:${design.id}`, step.file.name, index, 'service');
    return `added ${step.file.name} to "${design.name}" on the service`;
  }
  const files = await service.files(design.id);
  const file = at(files, (step as { pick: number }).pick);
  if (!file) return null;
  const record = `${design.id}:${file.kind}:${file.id}`;
  world.sawVersion(record, file.sha1);
  // A content removed on the service is still wanted where the test has another copy (moved to another folder…).
  const elsewhere = async (gone: RemoteFile) => {
    const folder = linkedFolderOf(ctx, design.id) ?? '\u0000';
    if (local.all().some((f) => f.sha1 === gone.sha1 && f.folder !== folder)) return true;
    for (const other of designs) if ((await service.files(other.id)).some((f) => f.sha1 === gone.sha1 && f.id !== gone.id)) return true;
    return false;
  };
  switch (step.do) {
    case 'remote-replace': {
      const hash = await upload(design.id, { name: file.name, kind: file.kind, size: step.size, content: step.content }, file.id);
      world.wrote(hash, `d:${design.id}`, file.name, index, 'service');
      world.sawVersion(record, hash);
      world.removedContent(file.sha1, `#${index} replaced ${file.name} on the service`, await elsewhere(file));
      return `replaced ${file.name} of "${design.name}" on the service (${file.sha1.slice(0, 7)} → ${hash.slice(0, 7)})`;
    }
    case 'remote-rename': {
      const name = `${step.to}${extname(file.name)}`;
      if (file.kind === 'image') await service.api.updateImage(design.id, file.id, { name });
      else await service.api.updateDocument(design.id, file.id, { name });
      world.placed(`d:${design.id}`, name, file.sha1);
      return `renamed ${file.name} of "${design.name}" to ${name} on the service`;
    }
    case 'remote-delete': {
      if (file.kind === 'image') await service.api.deleteImage(design.id, file.id);
      else await service.api.deleteDocument(design.id, file.id);
      world.deletedRecord(record, file.sha1, { designId: design.id, name: file.name, step: index });
      world.removedContent(file.sha1, `#${index} deleted ${file.name} on the service`, await elsewhere(file));
      return `deleted ${file.name} (${file.sha1.slice(0, 7)}) of "${design.name}" on the service`;
    }
    default:
      return null;
  }
}

function linkedFolderOf(ctx: ActionContext, designId: number): string | null {
  return readSyncState(ctx.paths.profile)?.folders.find((f) => f.designId === designId && f.state === 'linked')?.folder ?? null;
}

/**
 * A person confirmed deleting a file on the service: its content is theirs to remove, unless a copy is left elsewhere
 * at that moment (in the folder, or another file of the service). Found by seed 9512: a file moved to another design's
 * folder was sent there, deleted there by someone else (the copy here then went to the trash), and the person
 * confirmed deleting the file it was moved from; its content was gone by their own two decisions, not lost by sync.
 */
async function noteConfirmedDeletion(ctx: ActionContext, index: number, item: { designId?: number | null; remoteId?: number | null; fileKind?: string | null }): Promise<void> {
  if (item.designId == null || item.remoteId == null) return;
  const file = (await ctx.service.files(item.designId)).find((f) => f.id === item.remoteId && f.kind === item.fileKind);
  if (!file) return;
  // A copy here in the folder of a design the test deleted this content from is on its way to the trash, rightly.
  const deletedFrom = ctx.world.deletedOnService.get(file.sha1);
  const leaving = deletedFrom ? linkedFolderOf(ctx, deletedFrom.designId) : null;
  let elsewhere = ctx.local.all().some((f) => f.sha1 === file.sha1 && f.folder !== leaving);
  for (const design of await ctx.service.designs()) {
    if (elsewhere) break;
    elsewhere = (await ctx.service.files(design.id)).some((f) => f.sha1 === file.sha1 && !(design.id === item.designId && f.id === file.id));
  }
  ctx.world.removedContent(file.sha1, `#${index} confirmed deleting ${file.name} on the service`, elsewhere);
}

/** A person confirms what waits for them: through `design-sync queue confirm`, or the engine's queue actions. */
async function confirm(ctx: ActionContext, index: number, step: Extract<Step, { do: 'confirm' }>): Promise<string | null> {
  const attention = step.what === 'delete' ? 'confirm-delete' : 'confirm-design';
  const waiting = (readSyncState(ctx.paths.profile)?.items ?? []).filter((item) => item.state === 'attention' && item.attention === attention);
  const chosen = step.pick === 'all' ? waiting : [at(waiting, step.pick)].filter((item) => item !== null);
  const done: string[] = [];
  for (const item of chosen) {
    const folder = item.folder ?? '';
    const name = `Fuzz ${folder} s${ctx.seed}`.slice(0, 255);
    if (step.via === 'cli') {
      const fields = step.what === 'design' ? ['--name', name, '--excerpt', 'Made from a folder by the sync fuzz test', '--license', 'cc0'] : [];
      const run = await runCliCapturing(ctx.paths.profile, ['queue', 'confirm', String(item.id), ...fields]);
      if (run.code !== 0) {
        done.push(`#${item.id} refused: ${run.err.trim()}`);
        continue;
      }
    } else {
      try {
        withQueue(ctx.paths.profile, (queue) => (step.what === 'delete'
          ? confirmDeletion(queue, item.id)
          : confirmNewDesign(queue, item.id, { name, excerpt: 'Made from a folder by the sync fuzz test', license: 'cc0' }, false)));
      } catch (error) {
        done.push(`#${item.id} refused: ${(error as Error).message}`);
        continue;
      }
    }
    if (step.what === 'design') ctx.world.confirmedDesigns.set(folder, name);
    else await noteConfirmedDeletion(ctx, index, item);
    done.push(`#${item.id} ${item.path ?? folder}`);
  }
  ctx.world.note(index, `confirmed ${step.what}s: ${done.join('; ') || 'none waiting'}`);
  return done.length > 0 ? `confirmed ${done.join(', ')}` : null;
}
