import { request } from 'node:http';
import WebSocket from 'ws';
import type { ContractEvents, EventName, Outcome, RequestName, RequestResult } from '../../shared';

/** A window's side of the contract, from Node: the host's cookie taken with the secret, then the WebSocket. */
export interface TestContractClient {
  request<K extends RequestName>(name: K, input: unknown): Promise<Outcome<RequestResult<K>>>;
  /** Sends a raw frame (for malformed messages); resolves with the next response. */
  raw(frame: string): Promise<unknown>;
  events: { name: EventName; payload: unknown }[];
  nextEvent<E extends EventName>(name: E, matches?: (payload: ContractEvents[E]) => boolean, timeoutMs?: number): Promise<ContractEvents[E]>;
  close(): Promise<void>;
}

/** Opens the secret address once (as a browser does), returning the session cookie the host set. */
export async function cookieFrom(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET' }, (res) => {
      res.resume();
      const cookie = res.headers['set-cookie']?.[0]?.split(';')[0];
      if (cookie) resolve(cookie);
      else reject(new Error(`No cookie from ${url}: HTTP ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function connectContract(hostUrl: string): Promise<TestContractClient> {
  const origin = new URL(hostUrl).origin;
  const cookie = await cookieFrom(hostUrl);
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/contract`, { headers: { cookie, origin } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`WebSocket refused: HTTP ${res.statusCode}`)));
  });
  let nextId = 1;
  const pending = new Map<number, (outcome: unknown) => void>();
  const rawWaiters: ((message: unknown) => void)[] = [];
  const events: { name: EventName; payload: unknown }[] = [];
  const eventWaiters = new Set<() => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; id?: number; outcome?: unknown; name?: EventName; payload?: unknown };
    if (message.type === 'event') {
      events.push({ name: message.name!, payload: message.payload });
      for (const wake of [...eventWaiters]) wake();
      return;
    }
    const resolve = message.id !== undefined ? pending.get(message.id) : undefined;
    if (resolve) {
      pending.delete(message.id!);
      resolve(message.outcome);
    } else {
      rawWaiters.shift()?.(message);
    }
  });
  return {
    request(name, input) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (outcome: unknown) => void);
        socket.send(JSON.stringify({ type: 'request', id, name, input }));
      });
    },
    raw(frame) {
      return new Promise((resolve) => {
        rawWaiters.push(resolve);
        socket.send(frame);
      });
    },
    events,
    nextEvent(name, matches = () => true, timeoutMs = 15_000) {
      const seen = events.length;
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(seen).find((event) => event.name === name && matches(event.payload as never));
          if (!found) return;
          eventWaiters.delete(check);
          clearTimeout(timer);
          resolve(found.payload as never);
        };
        const timer = setTimeout(() => {
          eventWaiters.delete(check);
          reject(new Error(`No ${name} event within ${timeoutMs} ms`));
        }, timeoutMs);
        eventWaiters.add(check);
      });
    },
    close: () => new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close();
    }),
  };
}
