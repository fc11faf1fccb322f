import { describe, expect, it, vi } from 'vitest';

// Loading Electron from Node would fetch its binary: the shell's decisions import only its types.
vi.mock('electron', () => {
  throw new Error('a shell decision module imported electron at run time');
});

describe('the shell\'s decision modules', () => {
  it('load in plain Node, with no Electron at run time', async () => {
    const modules = await Promise.all([
      import('../../electron/shell/window/window-options'),
      import('../../electron/shell/window/content-security-policy'),
      import('../../electron/shell/window/navigation-policy'),
      import('../../electron/shell/window/permission-policy'),
      import('../../electron/shell/ipc/trusted-sender'),
      import('../../electron/shell/tray/tray-state'),
      import('../../electron/shell/tray/tray-menu'),
      import('../../electron/shell/menu/app-menu'),
      import('../../electron/shell/notifications/notification-policy'),
      import('../../electron/shell/notifications/notifier'),
      import('../../electron/shell/lifecycle/single-instance'),
    ]);
    expect(modules.every((module) => Object.keys(module).length > 0)).toBe(true);
  });
});
