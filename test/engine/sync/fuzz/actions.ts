/**
 * What a person does in the sync fuzz test, outside the syncing process: changes in the folder (files named so that
 * they are never sent among them), changes to the ignore files, changes on the service (through its HTTP interface,
 * with the user's token), and confirmations of what waits for them. Each step is resolved against the folder and the
 * service as they are now, and recorded in the world model.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { confirmDeletion, confirmNewDesign } from '../../../../electron/engine/runtime/queue-actions';
import { IGNORE_FILE, parseIgnoreText } from '../../../../electron/engine/sync/ignore/never-sent-rules';
import { runCliCapturing } from '../../../support/cli';
import { readSyncState, withQueue, type Faults, type FuzzPaths, type RemoteFile, type ServiceSide } from './driver';
import { IGNORE_POOL, type FileKind, type FileSpec, type IgnoreEditVia, type Step } from './steps';
import { contentBytes, IgnoreRules, sha1, type LocalFile, type LocalIndex, type World } from './world';

export interface ActionContext { seed: number; paths: FuzzPaths; world: World; local: LocalIndex; service: ServiceSide; faults: Faults }

const CONFLICT_COPY = / \(conflicted copy \d{4}-\d{2}-\d{2} \d{4}( \d+)?\)/;
const at = <T>(list: readonly T[], fraction: number): T | null => (list.length === 0 ? null : list[Math.min(list.length - 1, Math.floor(fraction * list.length))]!);
const kindOfName = (name: string): FileKind => (/\.png$/i.test(name) ? 'image' : /\.exe$/i.test(name) ? 'refused' : 'document');
const here = (folder: string) => `f:${folder}`;
const short = (hash: string) => hash.slice(0, 7);

/** Names the built-in list holds back, made from a file's name (its stem: without the extension): tools' backups, temporaries, locks. */
const BUILT_IN_FORMS: readonly ((stem: string, name: string) => string)[] = [
  (stem) => `${stem}.blend1`, (stem) => `${stem}.blend@`, (stem) => `${stem}.FCStd1`, (stem) => `${stem}.FCBak`,
  (_, name) => `${name}.bak`, (_, name) => `${name}~`, (_, name) => `~$${name}`, (stem) => `${stem}.gcode.tmp`,
  (stem) => `${stem}.3mf.tmp`, (_, name) => `${name}.orig`, (_, name) => `#${name}#`, (_, name) => `.${name}.swp`,
];
/** A name each pattern of the pool holds back (n: the step's own number, for names no other step makes). */
const PATTERN_FORMS: Record<string, (stem: string, name: string, n: number) => string> = {
  '*.autosave': (stem) => `${stem}.autosave`,
  '*.bak2': (_, name) => `${name}.bak2`,
  'draft-*': (_, name) => `draft-${name}`,
  '*.scad': (_, __, n) => `g${n}.scad`,
  'f*3.*': (_, __, n) => `f${n}x3.stl`,
  'r*.txt': (_, __, n) => `r${n}x.txt`,
  'w*': (_, __, n) => `w${n}x.bin`,
};

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
      world.recheckNeverSendable(local, index);
      return `renamed ${file.path} to ${name}${ignoredWords(world, file.folder, name)}`;
    }
    case 'move': {
      const file = pickFile(step.folder, step.pick);
      const to = at(local.folders().filter((f) => f !== file?.folder), step.toFolder);
      if (!file || !to || local.files(to).some((f) => f.name.toLowerCase() === file.name.toLowerCase())) return null;
      renameSync(join(paths.root, file.path), join(paths.root, to, file.name));
      world.tookAway(file.path, index);
      world.placed(here(to), file.name, file.sha1);
      world.recheckNeverSendable(local, index);
      return `moved ${file.path} to ${to}/${ignoredWords(world, to, file.name)}`;
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
      const files = local.files(folder, true);
      if (world.ignore.lines(folder).length > 0) world.ignore.changing();
      rmSync(join(paths.root, folder), { recursive: true, force: true });
      for (const file of files) {
        world.tookAway(file.path, index);
        world.removedContent(file.sha1, `#${index} deleted the folder ${folder}`, elsewhere(file.sha1, () => false));
      }
      // Its own ignore file went with it.
      if (world.ignore.lines(folder).length > 0) world.ignore.set(folder, [], index);
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
    case 'ignored-file':
      return ignoredFile(ctx, index, step);
    case 'edit-ignored': {
      const folder = at(local.folders(), step.folder);
      const file = folder ? at(local.files(folder, true).filter((f) => world.ignore.reason(f.folder, f.name)), step.pick) : null;
      if (!file) return null;
      const hash = await writeLocal(ctx, index, file.folder, file.name, { name: file.name, kind: kindOfName(file.name), size: step.size, content: step.content });
      world.removedContent(file.sha1, `#${index} overwrote ${file.path}`, elsewhere(file.sha1, () => false));
      return `edited ${file.path}, never sent (${short(file.sha1)} → ${short(hash)})${ignoredWords(world, file.folder, file.name)}`;
    }
    case 'ignore-edit':
      return editIgnoreFile(ctx, index, step);
    default:
      throw new Error(`not an action: ${step.do}`);
  }
}

async function writeLocal(ctx: ActionContext, index: number, folder: string, name: string, file: FileSpec): Promise<string> {
  const bytes = await contentBytes(ctx.seed, file.content, file.kind, file.size);
  writeFileSync(join(ctx.paths.root, folder, name), bytes);
  const hash = sha1(bytes);
  ctx.world.wrote(hash, here(folder), name, index, 'local');
  ctx.world.wroteLocally(hash, folder, name, index);
  return hash;
}

/** ", never sent (why)" when a path is held back now. */
function ignoredWords(world: World, folder: string, name: string): string {
  const reason = world.ignore.reason(folder, name);
  return reason ? `, never sent (${IgnoreRules.words(reason)})` : '';
}

/**
 * A file named so that it is never sent: a tool's backup or temporary from the built-in list, or a name the ignore
 * files hold back now, made from the name of a file of the folder (one that is sent). When the name is taken, the
 * file there is changed.
 */
async function ignoredFile(ctx: ActionContext, index: number, step: Extract<Step, { do: 'ignored-file' }>): Promise<string | null> {
  const { world, local } = ctx;
  const folder = at(local.folders(), step.folder);
  if (!folder) return null;
  const sent = local.files(folder).filter((f) => !CONFLICT_COPY.test(f.name) && !world.ignore.reason(folder, f.name));
  const base = at(sent, step.pick)?.name ?? `g${step.n}.stl`;
  const stem = base.replace(/\.[^.]*$/, '');
  const held = (names: string[]) => names.filter((name) => world.ignore.reason(folder, name) !== null);
  const byBuiltIn = held(BUILT_IN_FORMS.map((form) => form(stem, base)));
  const active = [...world.ignore.lines(null), ...world.ignore.lines(folder)].filter((pattern) => PATTERN_FORMS[pattern]);
  const byPattern = held(active.map((pattern) => PATTERN_FORMS[pattern]!(stem, base, step.n)));
  const name = at(step.byPattern && byPattern.length > 0 ? byPattern : byBuiltIn, step.form);
  if (!name) return null;
  const before = local.files(folder, true).find((f) => f.name === name);
  const hash = await writeLocal(ctx, index, folder, name, { name, kind: kindOfName(name), size: step.size, content: step.content });
  if (before) world.removedContent(before.sha1, `#${index} overwrote ${before.path}`, local.all(true).some((f) => f.sha1 === before.sha1));
  return `${before ? 'changed' : 'made'} ${folder}/${name} (${short(hash)})${ignoredWords(world, folder, name)}`;
}

/** The pattern lines of an ignore file as it is on disk (none when there is no file). */
function ignoreLinesOnDisk(root: string, folder: string | null): string[] {
  const path = join(root, folder ?? '', IGNORE_FILE);
  return existsSync(path) ? parseIgnoreText(readFileSync(path, 'utf8')).lines.map((line) => line.pattern) : [];
}

function writeIgnoreFile(root: string, folder: string | null, lines: string[], via: Exclude<IgnoreEditVia, 'cli'>): void {
  const path = join(root, folder ?? '', IGNORE_FILE);
  const text = lines.map((line) => `${line}\n`).join('');
  if (via === 'file') {
    writeFileSync(path, text);
  } else if (lines.length === 0) {
    rmSync(path, { force: true });
  } else {
    writeFileSync(`${path}.new`, text);
    renameSync(`${path}.new`, path);
  }
}

/**
 * A pattern of the pool added to an ignore file, or removed when it is there; then the files of the service that it
 * holds back now are noted (none may leave the service for it), and what the service holds is looked at.
 */
async function editIgnoreFile(ctx: ActionContext, index: number, step: Extract<Step, { do: 'ignore-edit' }>): Promise<string | null> {
  const { world, local, paths } = ctx;
  const folder = step.scope === 'root' ? null : at(local.folders(), step.folder);
  if (step.scope === 'folder' && !folder) return null;
  const file = folder ? `${folder}/${IGNORE_FILE}` : IGNORE_FILE;
  const before = world.ignore.lines(folder);
  const targeted = step.target === null ? null : at(holdingWaitingChanges(ctx, folder), step.target);
  const pattern = targeted ?? step.pattern;
  const adding = !before.includes(pattern);
  const after = adding ? [...before, pattern] : before.filter((line) => line !== pattern);
  let how: string = step.via === 'file' ? 'written in place' : step.via === 'rename' ? 'written beside it and renamed into place' : 'design-sync ignore';
  world.ignore.changing();
  if (step.via === 'cli' && folder === null) {
    const run = await runCliCapturing(paths.profile, ['ignore', adding ? 'add' : 'remove', pattern]).catch((error: Error) => ({ code: -1, out: '', err: error.message }));
    if (run.code !== 0) {
      writeIgnoreFile(paths.root, folder, after, 'rename');
      how = `design-sync ignore refused (${(run.err || run.out).trim().split('\n')[0]}), so written beside it and renamed into place`;
    }
  } else {
    writeIgnoreFile(paths.root, folder, after, step.via === 'cli' ? 'rename' : step.via);
  }
  // What is on disk now is what holds files back.
  world.ignore.set(folder, ignoreLinesOnDisk(paths.root, folder), index);
  world.recheckNeverSendable(local, index);
  await ctx.faults.lifted(() => lookAtService(ctx, index));
  const now = world.ignore.lines(folder);
  return `${adding ? 'added' : 'removed'} "${pattern}"${targeted ? ', which holds back a change waiting to be sent,' : ''} ${adding ? 'to' : 'from'} ${file} (${how}): ${now.length > 0 ? now.join(', ') : 'no patterns'}`;
}

/** The patterns of the pool that, added to the ignore file of `scope`, would hold back a change waiting (or being) sent. */
function holdingWaitingChanges(ctx: ActionContext, scope: string | null): string[] {
  const lines = ctx.world.ignore.lines(scope);
  const open = (readSyncState(ctx.paths.profile)?.items ?? [])
    .filter((item) => ['waiting', 'running', 'attention'].includes(item.state) && ['upload', 'replace', 'rename'].includes(item.kind) && item.path?.includes('/'));
  return IGNORE_POOL.filter((pattern) => !pattern.startsWith('!') && !lines.includes(pattern) && open.some((item) => {
    const slash = item.path!.indexOf('/');
    const [folder, name] = [item.path!.slice(0, slash), item.path!.slice(slash + 1)];
    return (scope === null || scope === folder) && ctx.world.ignore.reason(folder, name) === null && ctx.world.ignore.reasonWith(scope, [...lines, pattern], folder, name) !== null;
  }));
}

/**
 * The service now: files that are held back here (synced ones that became ignored, or brought from the service
 * under such a name) must stay there; a content the engine must never send, or a name of the built-in list, there
 * is a sighting of a broken invariant.
 */
async function lookAtService(ctx: ActionContext, index: number): Promise<void> {
  const linked = new Map((readSyncState(ctx.paths.profile)?.folders ?? []).filter((f) => f.state === 'linked' && f.designId !== null).map((f) => [f.designId!, f.folder]));
  for (const design of await ctx.service.designs()) {
    const folder = linked.get(design.id) ?? null;
    for (const file of await ctx.service.files(design.id)) {
      ctx.world.sawOnService(index, design.id, folder, file);
    }
  }
}

async function actOnService(ctx: ActionContext, index: number, step: Step): Promise<string | null> {
  const { service, world, local } = ctx;
  const upload = async (designId: number, file: FileSpec, remoteId?: number): Promise<string> => {
    const bytes = await contentBytes(ctx.seed, file.content, file.kind, file.size);
    const dir = join(ctx.paths.scratch, String(index));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file.name), bytes);
    const what = { path: join(dir, file.name), fileName: file.name };
    const hash = sha1(bytes);
    if (remoteId === undefined) {
      const made = file.kind === 'image' ? await service.api.uploadImage(designId, what, { name: file.name }) : await service.api.uploadDocument(designId, what, { name: file.name });
      // Brought into a folder where its name is never sent: it must stay on the service all the same.
      const folder = linkedFolderOf(ctx, designId);
      if (folder) world.sawOnService(index, designId, folder, { kind: file.kind === 'image' ? 'image' : 'document', id: made.id, name: file.name, sha1: hash });
    } else if (file.kind === 'image') await service.api.updateImage(designId, remoteId, {}, what);
    else await service.api.updateDocument(designId, remoteId, {}, what);
    return hash;
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
      const folder = linkedFolderOf(ctx, design.id);
      if (folder) world.sawOnService(index, design.id, folder, { ...file, name });
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
 * A person confirms deleting a file on the service: its content is theirs to remove, unless a copy is left elsewhere
 * at that moment (in the folder, or another file of the service). Read just before the confirmation (the watching
 * engine may delete the file on the service at once: seed 99902); the answer notes it once confirmed. Found by seed
 * 9512: a file moved to another design's folder was sent there, deleted there by someone else (the copy here then
 * went to the trash), and the person confirmed deleting the file it was moved from; its content was gone by their own
 * two decisions, not lost by sync.
 */
async function confirmedDeletionNote(
  ctx: ActionContext, index: number, item: { designId?: number | null; remoteId?: number | null; fileKind?: string | null; path?: string | null },
): Promise<() => void> {
  if (item.designId == null || item.remoteId == null) return () => undefined;
  const record = `${item.designId}:${item.fileKind}:${item.remoteId}`;
  // A file the test took away here and whose deletion it confirmed: removed from the service by the person.
  const takenAway = () => {
    if (item.path && ctx.world.pathsTakenAway.has(item.path)) ctx.world.removedFromService(record, `#${index} confirmed deleting ${item.path}`);
  };
  // Read before the confirmation: the watching engine may delete the file on the service as soon as it is confirmed.
  const file = (await ctx.service.files(item.designId)).find((f) => f.id === item.remoteId && f.kind === item.fileKind);
  if (!file) return takenAway;
  // A copy here in the folder of a design the test deleted this content from is on its way to the trash, rightly.
  const deletedFrom = ctx.world.deletedOnService.get(file.sha1);
  const leaving = deletedFrom ? linkedFolderOf(ctx, deletedFrom.designId) : null;
  // A copy here whose file on the service was since replaced by a newer version is on its way to being that version
  // (the next pass brings it): not a copy left. Found by seed 72019: a file moved to another design's folder was sent
  // there and replaced there on the service; the person then confirmed deleting the file it was moved from.
  const profileState = readSyncState(ctx.paths.profile);
  const superseded = async (copy: LocalFile): Promise<boolean> => {
    const designId = profileState?.folders.find((f) => f.folder === copy.folder && f.state === 'linked')?.designId;
    if (designId == null) return false;
    return (await ctx.service.files(designId)).some((f) => f.name === copy.name && f.sha1 !== copy.sha1);
  };
  let elsewhere = false;
  for (const copy of ctx.local.all().filter((f) => f.sha1 === file.sha1 && f.folder !== leaving)) {
    if (!(await superseded(copy))) {
      elsewhere = true;
      break;
    }
  }
  for (const design of await ctx.service.designs()) {
    if (elsewhere) break;
    elsewhere = (await ctx.service.files(design.id)).some((f) => f.sha1 === file.sha1 && !(design.id === item.designId && f.id === file.id));
  }
  return () => {
    takenAway();
    ctx.world.removedContent(file.sha1, `#${index} confirmed deleting ${file.name} on the service`, elsewhere);
  };
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
    const noteDeletion = step.what === 'delete' ? await confirmedDeletionNote(ctx, index, item) : null;
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
    else noteDeletion?.();
    done.push(`#${item.id} ${item.path ?? folder}`);
  }
  ctx.world.note(index, `confirmed ${step.what}s: ${done.join('; ') || 'none waiting'}`);
  return done.length > 0 ? `confirmed ${done.join(', ')}` : null;
}
