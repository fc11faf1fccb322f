/**
 * The window's preload (sandboxed, context-isolated): it exposes the contract as `window.designSync` and nothing
 * else — no Node, no Electron API, no raw IPC.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { PRELOAD_GLOBAL } from '../../shared/contract/preload-api';
import { contractApi } from './contract-api';

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, contractApi(ipcRenderer));
