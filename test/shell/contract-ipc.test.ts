import { describe, expect, it, vi } from 'vitest';
import { CONTRACT_EVENT_CHANNEL, CONTRACT_REQUEST_CHANNEL } from '../../shared';
import { registerContractIpc, sendContractEvent } from '../../electron/shell/ipc/contract-ipc';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

type Handler = (event: never, ...args: unknown[]) => Promise<unknown>;

function registered(isTrusted: boolean) {
  let handler: Handler | null = null;
  const request = vi.fn(async (name: string) => ({ ok: true as const, value: name as unknown }));
  const remove = registerContractIpc(
    { handle: (channel: string, fn: Handler) => { expect(channel).toBe(CONTRACT_REQUEST_CHANNEL); handler = fn; }, removeHandler: vi.fn() } as never,
    { isTrusted: () => isTrusted, request, log: () => {} },
  );
  return { call: (name: unknown, input: unknown) => handler!({ senderFrame: { url: 'https://evil.example/' } } as never, name, input), request, remove };
}

describe('the contract\'s IPC handler', () => {
  it('forwards a trusted window\'s request to the engine', async () => {
    const { call, request } = registered(true);
    expect(await call('library.page', { query: 'gear' })).toEqual({ ok: true, value: 'library.page' });
    expect(request).toHaveBeenCalledWith('library.page', { query: 'gear' });
  });

  it('refuses an untrusted sender before the engine hears of it', async () => {
    const { call, request } = registered(false);
    expect(await call('account.signOut', {})).toMatchObject({ ok: false, problem: { kind: 'forbidden' } });
    expect(request).not.toHaveBeenCalled();
  });

  it('refuses a name that is not the contract\'s', async () => {
    const { call, request } = registered(true);
    expect(await call('shell.openExternal', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false, problem: { kind: 'unknown-request' } });
    expect(await call({ toString: () => 'account.get' }, {})).toMatchObject({ ok: false, problem: { kind: 'unknown-request' } });
    expect(request).not.toHaveBeenCalled();
  });

  it('sends events only to windows still open, on the one event channel', () => {
    const open = { isDestroyed: () => false, send: vi.fn() };
    const closed = { isDestroyed: () => true, send: vi.fn() };
    const event = { type: 'event' as const, name: 'connectivity' as const, payload: { online: true, since: null, reason: null } as never };
    sendContractEvent([open, closed], event);
    expect(open.send).toHaveBeenCalledWith(CONTRACT_EVENT_CHANNEL, event);
    expect(closed.send).not.toHaveBeenCalled();
  });
});
