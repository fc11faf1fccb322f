import type { NeverSentView } from '../../../../shared';
import type { Engine } from '../../runtime/engine';
import { builtInRules } from '../../sync/ignore/never-sent-rules';

/** What is never sent: the sync folder's ignore file, the built-in list (read-only), what the scans held back. */
export async function neverSentView(engine: Engine): Promise<NeverSentView> {
  const parts = engine.serviceUrl() ? engine.syncParts() : null;
  return {
    ignoreFile: parts ? await parts.sync.ignoreFile() : { path: null, text: '', problem: null },
    builtIn: builtInRules().map(({ id, tool, label, patterns, source }) => ({ id, tool, label, patterns: [...patterns], source })),
    heldBack: parts ? parts.sync.heldBack.groups() : [],
  };
}
