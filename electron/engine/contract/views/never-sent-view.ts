import type { NeverSentView } from '../../../../shared';
import type { EngineServices } from '../../composition/engine-services';
import { ignoreFileProblemWords } from '../../sync/ignore/ignore-files';
import { builtInRules, IGNORE_FILE } from '../../sync/ignore/never-sent-rules';

/** What is never sent: the sync folder's ignore file, the built-in list (read-only), what the scans held back. */
export async function neverSentView({ sync }: Pick<EngineServices, 'sync'>): Promise<NeverSentView> {
  const parts = sync.partsIfChosen();
  const file = parts ? await parts.sync.ignoreFile() : { path: null, text: '', problem: null };
  const root = parts?.sync.root.current() ?? null;
  return {
    // Why it cannot be used, as facts too: read again for them (the sync engine answers its English).
    ignoreFile: { ...file, problemWords: file.problem && root ? await ignoreFileProblemWords(root.path, IGNORE_FILE) : null },
    builtIn: builtInRules().map(({ id, tool, label, patterns, source }) => ({ id, tool, label, patterns: [...patterns], source })),
    heldBack: parts ? parts.sync.heldBack.groups() : [],
  };
}
