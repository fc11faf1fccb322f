import { describe, expect, it, vi } from 'vitest';
import { isTrustedSender, senderRefusal, type SenderEvent } from '../../electron/shell/ipc/trusted-sender';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

interface FrameShape { url: string; parent: unknown; destroyed?: boolean; detached?: boolean; throws?: boolean }

function event({ id = 7, senderDestroyed = false, frame = { url: 'app://window/index.html#/sync', parent: null } as FrameShape | null } = {}): SenderEvent {
  const senderFrame = frame === null ? null : {
    get url() { if (frame.throws) throw new Error('Render frame was disposed before WebFrameMain could be accessed'); return frame.url; },
    parent: frame.parent,
    detached: frame.detached ?? false,
    isDestroyed: () => frame.destroyed ?? false,
  };
  return { sender: { id, isDestroyed: () => senderDestroyed }, senderFrame } as unknown as SenderEvent;
}

const ours = { webContentsIds: new Set([7]) };

describe('who may talk to the main process', () => {
  it('trusts the main frame of our own window showing our own page', () => {
    expect(isTrustedSender(event(), ours)).toBe(true);
    expect(isTrustedSender(event(), { webContentsIds: [3, 7] })).toBe(true);
  });

  it('refuses a subframe, even one of our own origin', () => {
    expect(senderRefusal(event({ frame: { url: 'app://window/index.html', parent: {} } }), ours)).toBe("not the window's main frame");
  });

  it('refuses a window we did not make (another webContents)', () => {
    expect(senderRefusal(event({ id: 8 }), ours)).toBe("not one of the app's windows");
  });

  it('refuses our window once it shows another page', () => {
    for (const url of ['https://designs.example/designs/gear', 'file:///tmp/evil.html', 'app://evil/index.html', 'app://window.evil/index.html', 'about:blank', 'data:text/html,x', 'app://user@window/index.html']) {
      expect(senderRefusal(event({ frame: { url, parent: null } }), ours), url).toBe("the sending page is not the app's own");
    }
    expect(senderRefusal(event({ frame: { url: '', parent: null } }), ours)).toBe('the sending frame has no valid address');
  });

  it('refuses a frame that is gone: null, destroyed, detached, or disposed while read', () => {
    expect(senderRefusal(event({ frame: null }), ours)).toBe('the sending frame is gone');
    expect(senderRefusal(event({ frame: { url: 'app://window/index.html', parent: null, destroyed: true } }), ours)).toBe('the sending frame is gone');
    expect(senderRefusal(event({ frame: { url: 'app://window/index.html', parent: null, detached: true } }), ours)).toBe('the sending frame is gone');
    expect(senderRefusal(event({ frame: { url: 'app://window/index.html', parent: null, throws: true } }), ours)).toBe('the sending frame is gone');
    expect(senderRefusal(event({ senderDestroyed: true }), ours)).toBe('the sending window is closed');
  });

  it('trusts nobody when no window is ours', () => {
    expect(isTrustedSender(event(), { webContentsIds: [] })).toBe(false);
  });
});
