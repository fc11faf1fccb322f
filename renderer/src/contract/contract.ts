import { webSocketContractClient, type WebSocketContractClient } from './websocket-client';

/**
 * The window's one way to the engine. In a browser (`design-sync ui`) it is the host's WebSocket on the same origin;
 * the Electron shell's preload will offer the same contract.
 */
export const contract: WebSocketContractClient = webSocketContractClient(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/contract`);
