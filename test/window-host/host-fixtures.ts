import { request } from 'node:http';
import WebSocket from 'ws';
import type { Outcome } from '../../shared';
import type { ContractEndpoint, EventMessage } from '../../electron/engine/contract/contract-endpoint';

/**
 * A small endpoint that answers from a table: these tests are about the host; the real engine's are in test/contract.
 * `account.get` echoes its input; `own.list` throws (an endpoint breaking its promise); `library.page` waits for `gate`.
 */
export interface FakeEndpoint extends ContractEndpoint {
  emit(event: EventMessage): void;
  listenerCount(): number;
  gate: { open(): void; inFlight: number; mostInFlight: number; reached(count: number): Promise<void> };
}

export function fakeEndpoint(files: Record<string, { path: string; size: number }> = {}): FakeEndpoint {
  const listeners = new Set<(event: EventMessage) => void>();
  let opened!: () => void;
  const gateOpen = new Promise<void>((resolve) => (opened = resolve));
  const watchers = new Set<() => void>();
  const gate: FakeEndpoint['gate'] = {
    open: () => opened(),
    inFlight: 0,
    mostInFlight: 0,
    reached: (count) => new Promise((resolve) => {
      const check = () => {
        if (gate.inFlight < count) return;
        watchers.delete(check);
        resolve();
      };
      watchers.add(check);
      check();
    }),
  };
  return {
    async handle(name, input): Promise<Outcome<unknown>> {
      if (name === 'account.get') return { ok: true, value: { echo: input } };
      if (name === 'own.list') throw new Error('broken on purpose');
      if (name === 'library.page') {
        gate.inFlight++;
        gate.mostInFlight = Math.max(gate.mostInFlight, gate.inFlight);
        for (const check of [...watchers]) check();
        await gateOpen;
        gate.inFlight--;
        return { ok: true, value: input };
      }
      return { ok: false, problem: { kind: 'unknown-request', message: `There is no request ${String(name)}.` } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async file(address) {
      const file = files[address];
      return file ? { path: file.path, contentType: 'image/png', size: file.size } : null;
    },
    async incomingDir() {
      throw new Error('This fake endpoint takes no drops (see drop-endpoint.test.ts for the real engine).');
    },
    async adoptDroppedFile() {
      return { ok: false, problem: { kind: 'internal', message: 'This fake endpoint takes no drops.' } };
    },
    async adoptGeneratedThumbnail() {
      return { ok: false, problem: { kind: 'internal', message: 'This fake endpoint takes no thumbnails.' } };
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    listenerCount: () => listeners.size,
    gate,
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that Host and other headers can be anything (fetch will not let a test set Host). */
export function raw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the secret address once, as a browser does, returning the session cookie (`name=value`) the host set. */
export async function cookieOf(port: number, secretUrl: string): Promise<string> {
  const answer = await raw(port, secretUrl.slice(new URL(secretUrl).origin.length));
  const cookie = [answer.headers['set-cookie']].flat()[0]?.split(';')[0];
  if (!cookie) throw new Error(`No cookie from ${secretUrl}: HTTP ${answer.status}`);
  return cookie;
}

/** Tries a WebSocket upgrade; resolves with the open socket, or the HTTP status it was refused with. */
export function upgrade(port: number, headers: Record<string, string>): Promise<{ opened: WebSocket | null; status: number | null }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/contract`, { headers });
    socket.once('open', () => resolve({ opened: socket, status: null }));
    socket.once('unexpected-response', (_req, res) => resolve({ opened: null, status: res.statusCode ?? null }));
    socket.once('error', () => resolve({ opened: null, status: null }));
  });
}

/** The parsed messages of a socket, and a way to await the next one that fits (with a deadline, never a sleep). */
export function inbox(socket: WebSocket) {
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const wake of [...waiters]) wake();
  });
  return {
    messages,
    next(matches: (message: Record<string, unknown>) => boolean, timeoutMs = 5000): Promise<Record<string, unknown>> {
      const seen = messages.length;
      return deadline(new Promise((resolve) => {
        const check = () => {
          const found = messages.slice(seen).find(matches);
          if (!found) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
      }), timeoutMs, 'no such message');
    },
  };
}

export function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms))),
  ]);
}
