import { describe, expect, it, vi } from 'vitest';
import { revealWindow, type RevealableWindow } from '../../electron/shell/lifecycle/single-instance';

// These modules need only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded by the shell\'s decisions');
});

function fakeWindow(state: { destroyed?: boolean; minimized?: boolean; visible?: boolean }) {
  const calls: string[] = [];
  const window: RevealableWindow = {
    isDestroyed: () => state.destroyed ?? false,
    isMinimized: () => state.minimized ?? false,
    isVisible: () => state.visible ?? true,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
  };
  return { window, calls };
}

describe('a second launch', () => {
  it('brings the running window forward: restored when minimised, shown when hidden in the tray, focused', () => {
    const minimized = fakeWindow({ minimized: true });
    expect(revealWindow(minimized.window)).toBe('reveal-window');
    expect(minimized.calls).toEqual(['restore', 'focus']);
    const hidden = fakeWindow({ visible: false });
    revealWindow(hidden.window);
    expect(hidden.calls).toEqual(['show', 'focus']);
  });

  it('asks for a new window when the last one was closed', () => {
    expect(revealWindow(null)).toBe('create-window');
    const closed = fakeWindow({ destroyed: true });
    expect(revealWindow(closed.window)).toBe('create-window');
    expect(closed.calls).toEqual([]);
  });
});
