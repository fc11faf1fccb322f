/**
 * The model worker: reads a model file's bytes off the window's main thread (a 200 MB file takes seconds to parse;
 * 3MF and AMF are XML, read here with @xmldom/xmldom since a worker has no DOMParser) and sends its geometry back as
 * typed arrays and decoded images whose buffers are transferred, not copied. Built by Vite as a module worker of the
 * window's own origin (the CSP allows `worker-src 'self'`, nothing else).
 */
import { inPieces, readTransfers, UnreadableModelError, type ModelRead } from './model-parts';
import type { ModelWords } from './model-words';
import { readModel } from './model-read';

export interface ModelWorkerRequest { type: string; bytes: ArrayBuffer }
/** A file that cannot be read: why, as words (ours) or as a loader's message (`words` null). */
export type ModelWorkerAnswer = { ok: true; read: ModelRead } | { ok: false; message: string; words: ModelWords | null };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ModelWorkerRequest>) => void) | null;
  postMessage(message: ModelWorkerAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = (event) => {
  void (async () => {
    try {
      const read = inPieces(await readModel(event.data.type, event.data.bytes));
      scope.postMessage({ ok: true, read }, readTransfers(read));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      scope.postMessage({ ok: false, message, words: error instanceof UnreadableModelError ? error.words : null });
    }
  })();
};
