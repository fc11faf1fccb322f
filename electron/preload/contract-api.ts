import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { EVENT_NAMES } from '../../shared/contract/events';
import { CONTRACT_EVENT_CHANNEL, CONTRACT_REQUEST_CHANNEL, type PreloadContractApi } from '../../shared/contract/preload-api';
import type { Outcome } from '../../shared/contract/protocol';
import { CONTRACT_REQUEST_NAMES } from '../../shared/contract/request-names';

const REQUESTS = new Set<string>(CONTRACT_REQUEST_NAMES);
const EVENTS = new Set<string>(EVENT_NAMES);

/**
 * The contract as the preload offers it: `request` for the contract's requests only (anything else is refused here,
 * before any IPC), `on` for its events only. One IPC channel each way; Electron's event object never reaches the
 * window.
 */
export function contractApi(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): PreloadContractApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  ipc.on(CONTRACT_EVENT_CHANNEL, (_event: IpcRendererEvent, message: { name?: unknown; payload?: unknown } | undefined) => {
    if (typeof message?.name !== 'string') return;
    for (const listener of listeners.get(message.name) ?? []) listener(message.payload);
  });
  const api = {
    async request(name: string, input: unknown): Promise<Outcome<unknown>> {
      if (typeof name !== 'string' || !REQUESTS.has(name)) {
        return { ok: false, problem: { kind: 'unknown-request', message: `There is no request ${JSON.stringify(String(name)).slice(0, 120)}.` } };
      }
      return (await ipc.invoke(CONTRACT_REQUEST_CHANNEL, name, input)) as Outcome<unknown>;
    },
    on(name: string, listener: (payload: unknown) => void): () => void {
      if (typeof name !== 'string' || !EVENTS.has(name)) throw new Error(`There is no event ${JSON.stringify(String(name)).slice(0, 120)}.`);
      if (typeof listener !== 'function') throw new Error('An event listener must be a function.');
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
  };
  return api as PreloadContractApi;
}
