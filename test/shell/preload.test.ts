import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT_EVENT_CHANNEL, CONTRACT_REQUEST_CHANNEL, EVENT_NAMES, PRELOAD_GLOBAL, REQUEST_NAMES } from '../../shared';

const exposed = new Map<string, unknown>();
const invoke = vi.fn(async (_channel: string, name: string) => ({ ok: true, value: { echoed: name } }));
const listeners = new Map<string, (...args: unknown[]) => void>();
const ipcOn = vi.fn((channel: string, listener: (...args: unknown[]) => void) => listeners.set(channel, listener));
const send = vi.fn();
const sendSync = vi.fn();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: { invoke, on: ipcOn, removeListener: vi.fn(), send, sendSync },
}));

type Api = { request(name: string, input: unknown): Promise<{ ok: boolean; problem?: { kind: string } }>; on(name: string, listener: (payload: unknown) => void): () => void };
let api: Api;

beforeAll(async () => {
  await import('../../electron/preload/preload');
  api = exposed.get(PRELOAD_GLOBAL) as Api;
});

describe('the preload', () => {
  it('exposes one global, with exactly request and on', () => {
    expect([...exposed.keys()]).toEqual([PRELOAD_GLOBAL]);
    expect(Object.keys(api).sort()).toEqual(['on', 'request']);
  });

  it('carries every request of the contract, and only those, on the one request channel', async () => {
    for (const name of REQUEST_NAMES) {
      const outcome = await api.request(name, {});
      expect(outcome.ok).toBe(true);
    }
    expect(invoke.mock.calls.map((call) => call[1])).toEqual(REQUEST_NAMES);
    expect(new Set(invoke.mock.calls.map((call) => call[0]))).toEqual(new Set([CONTRACT_REQUEST_CHANNEL]));
    invoke.mockClear();
    for (const name of ['shell.openExternal', 'fs.readFile', '__proto__', 'constructor', '']) {
      const outcome = await api.request(name, {});
      expect(outcome.problem?.kind).toBe('unknown-request');
    }
    expect(invoke).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
    expect(sendSync).not.toHaveBeenCalled();
  });

  it('subscribes to every event of the contract and refuses others; listeners get the payload, never Electron\'s event', () => {
    const seen: unknown[] = [];
    for (const name of EVENT_NAMES) api.on(name, (payload) => seen.push(payload));
    expect(() => api.on('ipc.raw', () => {})).toThrow(/no event/);
    expect([...listeners.keys()]).toEqual([CONTRACT_EVENT_CHANNEL]);
    const deliver = listeners.get(CONTRACT_EVENT_CHANNEL)!;
    const electronEvent = { sender: { send }, senderId: 0 };
    for (const name of EVENT_NAMES) deliver(electronEvent, { name, payload: { for: name } });
    expect(seen).toEqual(EVENT_NAMES.map((name) => ({ for: name })));
    expect(seen.some((payload) => payload === electronEvent)).toBe(false);
  });

  it('stops calling a listener once it unsubscribes', () => {
    const seen: unknown[] = [];
    const off = api.on('connectivity', (payload) => seen.push(payload));
    const deliver = listeners.get(CONTRACT_EVENT_CHANNEL)!;
    deliver({}, { name: 'connectivity', payload: 1 });
    off();
    deliver({}, { name: 'connectivity', payload: 2 });
    expect(seen).toEqual([1]);
  });
});
