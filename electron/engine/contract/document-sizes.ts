import { askDocumentSizes } from '../library/document-sizes';
import type { SizedFile } from '../library/library-deps';
import type { Engine } from '../runtime/engine';

const KNOWN = new WeakMap<Engine, Map<string, number>>();

/**
 * The sizes of documents the file cache does not hold, asked of the service when it can be reached
 * (library/document-sizes.ts), and remembered for this engine's life.
 */
export async function documentSizes(engine: Engine, files: readonly SizedFile[], signal: AbortSignal): Promise<Map<string, number>> {
  let known = KNOWN.get(engine);
  if (!known) KNOWN.set(engine, (known = new Map()));
  const client = engine.serviceUrl() && engine.connectivity.state.online ? engine.interactiveClient() : null;
  return askDocumentSizes(known, client, files, signal);
}
