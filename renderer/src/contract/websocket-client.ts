import type { ContractClient, ContractEvents, EventName, Outcome, RequestName, RequestResult, ServerMessage } from '../../../shared';
import { PRELOADED_ANSWERS_ID, requestKey, type PreloadedAnswer } from '../../../shared/contract/preloaded-answers';

export type ConnectionState = 'connecting' | 'open' | 'lost';

export interface WebSocketContractClient extends ContractClient {
  readonly connection: ConnectionState;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

const LOST: Outcome<never> = { ok: false, problem: { kind: 'internal', message: 'The window lost its connection to design-sync: it reconnects by itself. Try again in a moment.' } };

/** The answers the host gave with the page (preloaded-page.ts), by request; none when the page holds none. */
function preloadedAnswers(): Map<string, Outcome<unknown>> {
  const answers = new Map<string, Outcome<unknown>>();
  const text = document.getElementById(PRELOADED_ANSWERS_ID)?.textContent;
  if (!text) return answers;
  try {
    for (const answer of JSON.parse(text) as PreloadedAnswer[]) answers.set(requestKey(answer.name, answer.input), answer.outcome);
  } catch {
    // Not JSON: the requests go over the socket as they would without it.
  }
  return answers;
}

/**
 * The contract over the window host's WebSocket (`design-sync ui`). Requests made while connecting wait for the
 * socket; requests under way when it drops end with a problem (never hang); it reconnects with backoff by itself.
 * A request the host answered with the page is answered from there, once: its answer is as old as the page, and
 * what changed since is told as the socket opens (the stores read their pages again when it does).
 */
export function webSocketContractClient(url: string): WebSocketContractClient {
  const preloaded = preloadedAnswers();
  let socket: WebSocket | null = null;
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  let attempt = 0;
  const pending = new Map<number, (outcome: Outcome<unknown>) => void>();
  const queued: string[] = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();

  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    for (const listener of connectionListeners) listener(next);
  };

  const connect = () => {
    setState(attempt === 0 ? 'connecting' : 'lost');
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      attempt = 0;
      setState('open');
      for (const frame of queued.splice(0)) ws.send(frame);
    });
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as ServerMessage;
      if (message.type === 'response') {
        pending.get(message.id)?.(message.outcome);
        pending.delete(message.id);
      } else {
        for (const listener of listeners.get(message.name) ?? []) listener(message.payload);
      }
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      for (const resolve of pending.values()) resolve(LOST);
      pending.clear();
      setState('lost');
      attempt += 1;
      setTimeout(connect, Math.min(250 * 2 ** attempt, 10_000));
    });
  };
  connect();

  return {
    get connection() {
      return state;
    },
    request<K extends RequestName>(name: K, input: unknown): Promise<Outcome<RequestResult<K>>> {
      const key = preloaded.size > 0 ? requestKey(name, input) : '';
      const answer = preloaded.get(key);
      if (answer) {
        preloaded.delete(key);
        return Promise.resolve(answer as Outcome<RequestResult<K>>);
      }
      const id = nextId++;
      const frame = JSON.stringify({ type: 'request', id, name, input });
      return new Promise((resolve) => {
        pending.set(id, resolve as (outcome: Outcome<unknown>) => void);
        if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
        else queued.push(frame);
      });
    },
    on<E extends EventName>(name: E, listener: (payload: ContractEvents[E]) => void) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}
