import type { ContractEvents, EventName, Outcome, RequestName, RequestResult } from '../../../shared';
import type { ConnectionState, WebSocketContractClient } from '../contract/websocket-client';

const NOT_HERE: Outcome<never> = { ok: false, problem: { kind: 'internal', message: 'The first frame is drawn without the engine.' } };

/**
 * The contract as the first frame is drawn (the first-frame build puts it in place of contract/contract.ts): nothing
 * is asked while rendering (the stores ask from effects, which do not run here), and the connection is as the
 * window's script first finds it, still connecting.
 */
export const contract: WebSocketContractClient = {
  connection: 'connecting' as ConnectionState,
  request<K extends RequestName>(_name: K, _input: unknown): Promise<Outcome<RequestResult<K>>> {
    return Promise.resolve(NOT_HERE);
  },
  on<E extends EventName>(_name: E, _listener: (payload: ContractEvents[E]) => void) {
    return () => undefined;
  },
  onConnection(_listener: (state: ConnectionState) => void) {
    return () => undefined;
  },
};
