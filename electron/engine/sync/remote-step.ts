import type { ServiceClient } from '../api/service-client';
import { handleDesignGone } from './design-gone';
import { ensureDesignFolders, pullRemoteChanges, type OwnDesignRef } from './remote-pass';
import type { RemoteChanges, RemoteWatch } from './remote-watch';
import type { RemoteSummary, SyncContext } from './sync-context';
import type { OwnDesigns } from './sync-options';

/** Which part of the service a pass looks at. */
export type RemoteScope =
  /** Everything: the own designs read whole, every linked design's files (the first pass, a rescan, "Sync now"). */
  | { kind: 'full' }
  /** What the remote watch found changed: only those designs' files; vanished designs' folders handled. */
  | { kind: 'changes'; changes: RemoteChanges }
  /** Only these designs' files (a decision was just taken on one of them). */
  | { kind: 'designs'; designIds: readonly number[] };

export interface RemoteStepDeps {
  client: ServiceClient;
  ownDesigns: OwnDesigns;
  watch: RemoteWatch;
  /** The signed-in user's id, learnt here from ownDesigns. */
  setUserId(id: number | null): void;
}

export interface RemoteStepResult {
  createdFolders: string[];
  remote: RemoteSummary;
  /** The folders of the designs looked at (for the local scan of a partial pass), null for all. */
  folders: string[] | null;
}

const linkedFolderOf = (ctx: SyncContext, designId: number) => {
  const row = ctx.folders.ofDesign(designId);
  return row?.state === 'linked' ? row.folder : null;
};

/**
 * The service's side of a pass: the own designs (written to the cache by ownDesigns, drafts included), a folder for
 * each new one, the folders of designs gone from the service handled (design-gone.ts), then the files of the designs
 * in scope brought into the folder. Offline, a refused sign-in…: the ServiceError is thrown (after the folders of the
 * designs already known were made).
 */
export async function remoteStep(ctx: SyncContext, deps: RemoteStepDeps, scope: RemoteScope, signal: AbortSignal): Promise<RemoteStepResult> {
  if (scope.kind === 'designs') {
    const ids = scope.designIds.filter((id) => linkedFolderOf(ctx, id) !== null);
    const remote = await pullRemoteChanges(ctx, deps.client, { signal, designIds: ids });
    return { createdFolders: [], remote, folders: ids.map((id) => linkedFolderOf(ctx, id)!) };
  }
  const own = await deps.ownDesigns(signal);
  deps.setUserId(own.userId);
  let changes: RemoteChanges | null = scope.kind === 'changes' ? scope.changes : null;
  let readFailure: unknown = null;
  if (scope.kind === 'full' && own.userId !== null) {
    // The watch's list read at every full pass: its answer is what the next polls compare with (a 304 when unchanged).
    try {
      changes = await deps.watch.read(own.userId, signal) ?? { changed: [], vanished: [], listed: deps.watch.listed() };
    } catch (error) {
      readFailure = error;
    }
  }
  // The list read last is the one trusted for folders and for what vanished; the own designs fill in without it.
  const listed: OwnDesignRef[] = changes ? changes.listed : own.designs;
  const createdFolders = await ensureDesignFolders(ctx, listed);
  if (readFailure) throw readFailure;

  const listedIds = new Set(listed.map((design) => design.id));
  const vanished = scope.kind === 'changes'
    ? scope.changes.vanished
    : changes ? ctx.folders.all().filter((row) => row.state === 'linked' && row.designId !== null && !listedIds.has(row.designId)).map((row) => row.designId!) : [];
  for (const designId of vanished) {
    await handleDesignGone(ctx, deps.client, designId, { userId: own.userId, name: deps.watch.nameOf(designId) ?? own.designs.find((d) => d.id === designId)?.name ?? null, signal });
  }

  if (scope.kind === 'full') {
    return { createdFolders, remote: await pullRemoteChanges(ctx, deps.client, { signal, newFolders: createdFolders }), folders: null };
  }
  const newlyLinked = new Set(createdFolders);
  const ids = [...new Set([...scope.changes.changed, ...listed.filter((d) => newlyLinked.has(linkedFolderOf(ctx, d.id) ?? '')).map((d) => d.id)])]
    .filter((id) => linkedFolderOf(ctx, id) !== null);
  const remote = await pullRemoteChanges(ctx, deps.client, { signal, designIds: ids, newFolders: createdFolders });
  return { createdFolders, remote, folders: ids.map((id) => linkedFolderOf(ctx, id)!) };
}
