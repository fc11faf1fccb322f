import type { PassResult } from '../sync/sync-options';
import { engineLog } from '../log/engine-log';
import type { Engine } from './engine';
import { EngineError } from './engine-error';

/** What the person asks of the sync folder besides its settings: each takes effect at once, not at the next rescan. */

/**
 * "Sync now" (the window, the tray): a full pass at once — the own designs and every linked design's files from the
 * service, then the folder's changes into the queue — after whatever runs now. Refused without a sync folder.
 */
export async function syncNow(engine: Engine): Promise<PassResult> {
  const { sync } = engine.syncParts();
  if (!sync.root.current()) throw new EngineError({ kind: 'sync-folder', message: 'Choose a sync folder first.' });
  const result = await sync.syncOnce({ settle: 'once' });
  engine.queueWorkAdded();
  return result;
}

/**
 * A decision was taken on queue items of these designs (a deletion turned down or confirmed, a conflict settled):
 * their files are looked at on the service at once, so that it shows within seconds (a file kept there comes back).
 */
export function decisionTaken(engine: Engine, designIds: readonly (number | null)[]): void {
  void applyDecision(engine, designIds).catch((error: unknown) => engineLog.warn('sync', 'the pass after a decision failed', error));
}

/**
 * The same, awaited (`design-sync queue cancel`, whose process ends with the command): the pass over those designs,
 * or null when there is nothing to look at (no service, no sync folder, no design).
 */
export async function applyDecision(engine: Engine, designIds: readonly (number | null)[]): Promise<PassResult | null> {
  const ids = [...new Set(designIds.filter((id): id is number => id !== null))];
  if (ids.length === 0 || !engine.serviceUrl()) return null;
  const { sync } = engine.syncParts();
  if (!sync.root.current()) return null;
  return sync.syncDesigns(ids);
}

/**
 * An own design was deleted on the service (own.delete got its answer): its folder is handled at once, as
 * docs/sync.md says — to the trash when nothing in it changed since the last sync, else kept, no longer synced, and
 * the person told. Nothing without a sync folder, or when the design had no folder.
 */
export async function ownDesignDeleted(engine: Engine, designId: number): Promise<void> {
  if (!engine.serviceUrl()) return;
  const { sync } = engine.syncParts();
  if (!sync.root.current()) return;
  await sync.designGone(designId, { confirmed: true });
}

/**
 * "Pull the catalogue now" also brings the sync folder's side of the service: a full pass once the catalogue (own
 * designs and drafts included) is pulled. Its failure is logged; the pull's own outcome is what the person is told.
 */
export async function refreshSyncFolder(engine: Engine): Promise<void> {
  if (!engine.serviceUrl() || !engine.syncParts().sync.root.current()) return;
  try {
    await syncNow(engine);
  } catch (error) {
    engineLog.warn('sync', 'the sync pass after pulling the catalogue failed', error);
  }
}
