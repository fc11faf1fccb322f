import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { EventMessage } from '../../electron/engine/contract/contract-endpoint';
import { MAX_IN_FLIGHT } from '../../electron/window-host/contract-socket';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { cookieOf, deadline, fakeEndpoint, inbox, upgrade, type FakeEndpoint } from './host-fixtures';

let host: WindowHost;
let endpoint: FakeEndpoint;
let cookie: string;
let origin: string;
const logs: string[] = [];
const logWaiters = new Set<() => void>();
const opened: WebSocket[] = [];

/** Resolves once the host has logged this line. */
function logged(line: string, timeoutMs: number): Promise<void> {
  return deadline(new Promise<void>((resolve) => {
    const check = () => {
      if (!logs.includes(line)) return;
      logWaiters.delete(check);
      resolve();
    };
    logWaiters.add(check);
    check();
  }), timeoutMs, `no log line "${line}"`);
}

beforeAll(async () => {
  endpoint = fakeEndpoint();
  host = await startWindowHost({
    endpoint,
    log: (line) => {
      logs.push(line);
      for (const wake of [...logWaiters]) wake();
    },
  });
  origin = host.origin;
  cookie = await cookieOf(host.port, host.url);
});

afterAll(async () => {
  for (const socket of opened) socket.terminate();
  await host?.close();
});

async function connected(): Promise<WebSocket> {
  const { opened: socket, status } = await upgrade(host.port, { cookie, origin });
  expect(status).toBeNull();
  opened.push(socket!);
  return socket!;
}

const closeOf = (socket: WebSocket) => deadline(new Promise<number>((resolve) => socket.once('close', (code) => resolve(code))), 5000, 'no close');
const connectivity = (reason: string): EventMessage => ({ type: 'event', name: 'connectivity', payload: { online: false, reason, since: new Date(0).toISOString() } });

describe('the contract WebSocket', () => {
  it('refuses an upgrade from a foreign Origin, without Origin, without the cookie, with a wrong Host, or elsewhere', async () => {
    expect(await upgrade(host.port, { cookie, origin: 'http://evil.example' })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { cookie, origin: `http://127.0.0.1:${host.port + 1}` })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { cookie, origin: 'null' })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { cookie })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { origin })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { origin, cookie: `${cookie.split('=')[0]}=guessed` })).toMatchObject({ opened: null, status: 403 });
    expect(await upgrade(host.port, { cookie, origin, host: `evil.example:${host.port}` })).toMatchObject({ opened: null, status: 403 });
    // A page served as localhost is not 127.0.0.1's own origin.
    expect(await upgrade(host.port, { cookie, origin: `http://localhost:${host.port}` })).toMatchObject({ opened: null, status: 403 });
    expect(logs).toContain('window host: a WebSocket was refused (the Origin is not this host)');
    expect(logs).toContain('window host: a WebSocket was refused (no session cookie)');
  });

  it('round-trips a request and delivers events to every open socket', async () => {
    const [first, second] = [await connected(), await connected()];
    const [one, two] = [inbox(first), inbox(second)];
    const answer = one.next((message) => message.id === 1);
    first.send(JSON.stringify({ type: 'request', id: 1, name: 'account.get', input: { a: 1 } }));
    expect(await answer).toEqual({ type: 'response', id: 1, outcome: { ok: true, value: { echo: { a: 1 } } } });
    expect(two.messages).toEqual([]);

    const events = [one.next((message) => message.type === 'event'), two.next((message) => message.type === 'event')];
    endpoint.emit(connectivity('gone'));
    for (const event of await Promise.all(events)) {
      expect(event).toEqual({ type: 'event', name: 'connectivity', payload: { online: false, reason: 'gone', since: '1970-01-01T00:00:00.000Z' } });
    }
  });

  it('answers a malformed frame with a validation problem naming the field, and drops one without an id', async () => {
    const socket = await connected();
    const box = inbox(socket);
    let answer = box.next((message) => message.id === 2);
    socket.send(JSON.stringify({ type: 'request', id: 2, name: 42, input: {} }));
    expect(await answer).toMatchObject({ type: 'response', id: 2, outcome: { ok: false, problem: { kind: 'validation', fieldErrors: { name: [expect.any(String)] } } } });

    answer = box.next((message) => message.id === 3);
    socket.send(JSON.stringify({ type: 'request', id: 3, name: 'account.get', input: {}, extra: true }));
    expect(await answer).toMatchObject({ id: 3, outcome: { ok: false, problem: { kind: 'validation', message: expect.stringContaining('extra'), fieldErrors: { extra: ['is not a known field'] } } } });

    answer = box.next((message) => message.id === 4);
    socket.send(JSON.stringify({ type: 'reply', id: 4, name: 'account.get' }));
    expect(await answer).toMatchObject({ id: 4, outcome: { ok: false, problem: { kind: 'validation', fieldErrors: { type: [expect.any(String)] } } } });

    // Nothing comes back for these; the request after them is answered first, and the drops are logged.
    answer = box.next(() => true);
    socket.send('not json');
    socket.send(JSON.stringify({ type: 'request', name: 'account.get', input: {} }));
    socket.send(JSON.stringify([1, 2]));
    socket.send(JSON.stringify({ type: 'request', id: 5, name: 'account.get', input: {} }));
    expect(await answer).toMatchObject({ id: 5, outcome: { ok: true } });
    expect(logs).toContain('window host: a frame that is not JSON was dropped');
    expect(logs).toContain('window host: a message without a request id was dropped');
  });

  it('answers an internal problem when the endpoint throws, without a stack, and carries on', async () => {
    const socket = await connected();
    const box = inbox(socket);
    const answer = box.next((message) => message.id === 6);
    socket.send(JSON.stringify({ type: 'request', id: 6, name: 'own.list', input: {} }));
    const response = await answer;
    expect(response).toMatchObject({ id: 6, outcome: { ok: false, problem: { kind: 'internal' } } });
    expect(JSON.stringify(response)).not.toMatch(/broken on purpose|at .*\.ts/);
    const after = box.next((message) => message.id === 7);
    socket.send(JSON.stringify({ type: 'request', id: 7, name: 'account.get', input: {} }));
    expect(await after).toMatchObject({ outcome: { ok: true } });
  });

  it('closes a socket that sends a frame over the size limit', async () => {
    const socket = await connected();
    const closed = closeOf(socket);
    socket.send('x'.repeat(1024 * 1024 + 1));
    expect(await closed).toBe(1009);
  });

  it('closes a socket that sends binary frames', async () => {
    const socket = await connected();
    const closed = closeOf(socket);
    socket.send(Buffer.from('{}'));
    expect(await closed).toBe(1003);
  });

  it(`answers at most ${MAX_IN_FLIGHT} requests of one socket at once, and all of them in the end`, async () => {
    const socket = await connected();
    const box = inbox(socket);
    const count = MAX_IN_FLIGHT + 8;
    const all = box.next(() => box.messages.filter((message) => message.type === 'response').length === count);
    // One write, so that the host reads every frame at once.
    const tcp = (socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.cork();
    for (let id = 100; id < 100 + count; id++) socket.send(JSON.stringify({ type: 'request', id, name: 'library.page', input: { offset: id } }));
    tcp.uncork();
    await deadline(endpoint.gate.reached(MAX_IN_FLIGHT), 5000, 'the endpoint was not asked');
    endpoint.gate.open();
    await all;
    expect(endpoint.gate.mostInFlight).toBe(MAX_IN_FLIGHT);
    const ids = box.messages.map((message) => message.id).sort((a, b) => Number(a) - Number(b));
    expect(ids).toEqual(Array.from({ length: count }, (_, index) => 100 + index));
  });

  it('disconnects a window that stops reading instead of buffering for it without end', async () => {
    const socket = await connected();
    const tcp = (socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.pause();
    const reason = 'x'.repeat(1024 * 1024);
    const dropped = logged('window host: a window stopped reading its messages; it was disconnected', 10_000);
    for (let index = 0; index < 64; index++) endpoint.emit(connectivity(reason));
    await dropped;
    tcp.resume();
    await closeOf(socket);
  });

  it('closes its sockets and leaves the endpoint when the host closes', async () => {
    const endpointOfItsOwn = fakeEndpoint();
    const other = await startWindowHost({ endpoint: endpointOfItsOwn });
    const otherCookie = await cookieOf(other.port, other.url);
    const { opened: socket } = await upgrade(other.port, { cookie: otherCookie, origin: other.origin });
    expect(socket).not.toBeNull();
    const closed = closeOf(socket!);
    await other.close();
    await closed;
    expect(endpointOfItsOwn.listenerCount()).toBe(0);
  });
});
