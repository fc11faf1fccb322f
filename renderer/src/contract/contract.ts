import type { PreloadContractApi } from '../../../shared';
import { PRELOAD_GLOBAL } from '../../../shared/contract/preload-api';
import { preloadContractClient } from './preload-client';
import { webSocketContractClient, type WebSocketContractClient } from './websocket-client';

const preload = (window as unknown as Record<string, PreloadContractApi | undefined>)[PRELOAD_GLOBAL];

/**
 * The window's one way to the engine: in the Electron app, the preload's contract; in a browser (`design-sync ui`),
 * the host's WebSocket on the same origin.
 */
export const contract: WebSocketContractClient = preload
  ? preloadContractClient(preload)
  : webSocketContractClient(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/contract`);
