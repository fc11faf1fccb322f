import type { PreloadContractApi } from '../../../shared';
import type { WebSocketContractClient } from './websocket-client';

/**
 * The contract through the Electron preload (`window.designSync`): always connected while the window lives, since
 * the main process restarts the engine behind it by itself.
 */
export function preloadContractClient(api: PreloadContractApi): WebSocketContractClient {
  return {
    connection: 'open',
    onConnection: () => () => {},
    request: (name, input) => api.request(name, input),
    on: (name, listener) => api.on(name, listener),
  };
}
