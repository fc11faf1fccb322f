import { describe, expect, it, vi } from 'vitest';
import { CONTRACT_REQUEST_CHANNEL, type Outcome } from '../../shared';
import { registerContractIpc } from '../../electron/shell/ipc/contract-ipc';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

type Handler = (event: never, ...args: unknown[]) => Promise<unknown>;

/** The contract's IPC handler with an engine that answers `answer`, and Electron's shell.openPath as `openPath`. */
function registered(answer: Outcome<unknown>, openPath?: (path: string) => Promise<string>) {
  let handler: Handler | null = null;
  const request = vi.fn(async () => answer);
  const logs: string[] = [];
  registerContractIpc(
    { handle: (channel: string, fn: Handler) => { expect(channel).toBe(CONTRACT_REQUEST_CHANNEL); handler = fn; }, removeHandler: vi.fn() } as never,
    { isTrusted: () => true, request, log: (line) => logs.push(line), ...(openPath ? { openPath } : {}) },
  );
  return { call: (name: string, input: unknown) => handler!({ senderFrame: { url: 'app://design-sync/' } } as never, name, input), request, logs };
}

const CACHED = '/profile/opened/31/cube.stl';
const SYSTEM = { id: 'system', name: 'System default app', types: ['stl'] };
const PRUSA = { id: 'desktop:PrusaSlicer.desktop', name: 'PrusaSlicer', types: ['stl'] };

describe('"Open in your slicer" in the Electron app', () => {
  it('opens the copy the engine names with the system\'s default app, and tells the window only that it opened', async () => {
    const openPath = vi.fn(async () => '');
    const { call, request } = registered({ ok: true, value: { opened: false, path: CACHED, slicer: SYSTEM } }, openPath);
    expect(await call('design.openModelFile', { documentId: 31, slicer: 'system' })).toEqual({ ok: true, value: { opened: true, path: null, slicer: SYSTEM } });
    expect(request).toHaveBeenCalledWith('design.openModelFile', { documentId: 31, slicer: 'system' });
    expect(openPath).toHaveBeenCalledWith(CACHED);
  });

  it('passes on a slicer the engine started itself, opening nothing more', async () => {
    const openPath = vi.fn(async () => '');
    const { call } = registered({ ok: true, value: { opened: true, path: null, slicer: PRUSA } }, openPath);
    expect(await call('design.openModelFile', { documentId: 31 })).toEqual({ ok: true, value: { opened: true, path: null, slicer: PRUSA } });
    expect(openPath).not.toHaveBeenCalled();
  });

  it('says plainly when the system has no app for the file, without the path or the system\'s error', async () => {
    const { call, logs } = registered({ ok: true, value: { opened: false, path: CACHED, slicer: SYSTEM } }, async () => 'Failed to open path');
    const outcome = await call('design.openModelFile', { documentId: 31 }) as Outcome<unknown>;
    expect(outcome).toEqual({ ok: false, problem: { kind: 'internal', message: expect.stringMatching(/^Your system could not open this file/) } });
    expect(JSON.stringify(outcome)).not.toMatch(/profile|Failed to open path/);
    expect(logs).toEqual(['ipc: a model file could not be opened (Failed to open path)']);
  });

  it('opens nothing when the engine refused', async () => {
    const openPath = vi.fn(async () => '');
    const refused = { ok: false as const, problem: { kind: 'validation' as const, message: 'Some fields are not right.', fieldErrors: { documentId: ['must be a number'] } } };
    expect(await registered(refused, openPath).call('design.openModelFile', { documentId: 'x' })).toEqual(refused);
    expect(openPath).not.toHaveBeenCalled();
  });

  it('never opens a path another request answers, nor when the shell gives no way to open files', async () => {
    const openPath = vi.fn(async () => '');
    const other = { ok: true as const, value: { opened: false, path: CACHED, slicer: SYSTEM } };
    expect(await registered(other, openPath).call('design.openPage', { id: 31 })).toEqual(other);
    expect(openPath).not.toHaveBeenCalled();
    expect(await registered(other).call('design.openModelFile', { documentId: 31 })).toEqual({ ok: true, value: { opened: false, path: null, slicer: SYSTEM } });
  });
});
