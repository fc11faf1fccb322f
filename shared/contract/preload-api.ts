import type { ContractEvents, EventName } from './events';
import type { Outcome } from './protocol';
import type { RequestName, RequestResult, Requests } from './requests';

/** The name under which the Electron preload exposes the contract to the window (`window.designSync`). */
export const PRELOAD_GLOBAL = 'designSync';

/** The IPC channels that carry the contract between the preload and the main process; no other channel is used. */
export const CONTRACT_REQUEST_CHANNEL = 'design-sync:contract-request';
export const CONTRACT_EVENT_CHANNEL = 'design-sync:contract-event';

/**
 * Exactly what the preload exposes, and nothing else: the contract's requests (refused before any IPC when the name is
 * not one of the contract's) and its events (listeners get the payload only, never Electron's event object).
 */
export interface PreloadContractApi {
  request<K extends RequestName>(name: K, input: Requests[K]['input']): Promise<Outcome<RequestResult<K>>>;
  on<E extends EventName>(name: E, listener: (payload: ContractEvents[E]) => void): () => void;
}
