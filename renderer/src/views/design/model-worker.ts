/**
 * The model worker: reads a model file's bytes off the window's main thread (a 200 MB G-code file takes seconds to
 * parse) and sends its geometry back as typed arrays whose buffers are transferred, not copied. Built by Vite as a
 * module worker of the window's own origin (the CSP allows `worker-src 'self'`, nothing else).
 */
import { modelParts, partBuffers, UnreadableModelError, type ModelPart } from './model-parts';

export interface ModelWorkerRequest { type: string; bytes: ArrayBuffer }
export type ModelWorkerAnswer = { ok: true; parts: ModelPart[] } | { ok: false; message: string; unreadable: boolean };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ModelWorkerRequest>) => void) | null;
  postMessage(message: ModelWorkerAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = (event) => {
  try {
    const parts = modelParts(event.data.type, event.data.bytes);
    scope.postMessage({ ok: true, parts }, partBuffers(parts));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    scope.postMessage({ ok: false, message, unreadable: error instanceof UnreadableModelError });
  }
};
