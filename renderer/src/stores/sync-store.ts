import { create } from 'zustand';
import type { ConnectivityView, SyncView } from '../../../shared';
import { contract } from '../contract/contract';
import type { ConnectionState } from '../contract/websocket-client';

interface SyncStore {
  sync: SyncView | null;
  connectivity: ConnectivityView | null;
  /** The window's own link to the engine (the host may have stopped). */
  connection: ConnectionState;
  load(): Promise<void>;
}

export const useSync = create<SyncStore>((set) => ({
  sync: null,
  connectivity: null,
  connection: contract.connection,
  async load() {
    const outcome = await contract.request('sync.status', {});
    if (outcome.ok) set({ sync: outcome.value });
  },
}));

contract.on('sync.changed', (sync) => useSync.setState({ sync }));
contract.on('connectivity', (connectivity) => useSync.setState({ connectivity }));
contract.onConnection((connection) => {
  useSync.setState({ connection });
  // Back after a drop: what changed meanwhile was not heard.
  if (connection === 'open') void useSync.getState().load();
});
