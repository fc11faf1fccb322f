import type { PassResult } from '../sync/sync-options';
import type { Engine } from './engine';

/**
 * What the person asks of the sync folder, for callers holding the engine: each is the sync service's
 * (runtime/sync-service.ts), where it is described.
 */

export function syncNow(engine: Engine): Promise<PassResult> {
  return engine.sync.syncNow();
}

export function decisionTaken(engine: Engine, designIds: readonly (number | null)[]): void {
  engine.sync.decisionTaken(designIds);
}

export function applyDecision(engine: Engine, designIds: readonly (number | null)[]): Promise<PassResult | null> {
  return engine.sync.applyDecision(designIds);
}

export function ownDesignDeleted(engine: Engine, designId: number): Promise<void> {
  return engine.sync.ownDesignDeleted(designId);
}

export function refreshSyncFolder(engine: Engine): Promise<void> {
  return engine.sync.refreshAfterPull();
}
