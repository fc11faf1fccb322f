import type { NeverSentView } from '../../../../shared';
import type { EngineServices } from '../../composition/engine-services';
import { builtInRules } from '../../sync/ignore/never-sent-rules';

/** What is never sent: the sync folder's ignore file, the built-in list (read-only), what the scans held back. */
export async function neverSentView({ sync }: Pick<EngineServices, 'sync'>): Promise<NeverSentView> {
  const parts = sync.partsIfChosen();
  return {
    ignoreFile: parts ? await parts.sync.ignoreFile() : { path: null, text: '', problem: null },
    builtIn: builtInRules().map(({ id, tool, label, patterns, source }) => ({ id, tool, label, patterns: [...patterns], source })),
    heldBack: parts ? parts.sync.heldBack.groups() : [],
  };
}
