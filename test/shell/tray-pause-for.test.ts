import { describe, expect, it, vi } from 'vitest';
import { trayMenuTemplate, type TrayMenuActions } from '../../electron/shell/tray/tray-menu';
import { trayView } from '../../electron/shell/tray/tray-state';
import { syncView } from './shell-fixtures';

// The code under test needs none of Electron; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/** The tray's menu only: nothing of Electron is loaded (its types only). */
function actions() {
  return {
    openWindow: vi.fn(), openSyncFolder: vi.fn(), syncNow: vi.fn(), pauseUploads: vi.fn(), pauseUploadsFor: vi.fn(), resumeUploads: vi.fn(), quit: vi.fn(),
  } satisfies TrayMenuActions;
}

type MenuItem = ReturnType<typeof trayMenuTemplate>[number];

function item(template: MenuItem[], id: string): MenuItem | undefined {
  return template.find((entry) => entry.id === id);
}

function click(entry: MenuItem | undefined): void {
  (entry!.click as () => void)();
}

describe('pausing uploads for a while from the tray', () => {
  it('offers to pause for 1 hour and until tomorrow at 8:00, each asking the engine for that length', () => {
    const sync = syncView();
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers);
    expect(item(template, 'pause')).toMatchObject({ label: 'Pause uploads', enabled: true });
    expect(item(template, 'pause-hour')).toMatchObject({ label: 'Pause for 1 hour', enabled: true });
    expect(item(template, 'pause-tomorrow')).toMatchObject({ label: 'Pause until tomorrow (8:00)', enabled: true });
    click(item(template, 'pause-hour'));
    click(item(template, 'pause-tomorrow'));
    expect(handlers.pauseUploadsFor.mock.calls).toEqual([['hour'], ['tomorrow']]);
    expect(handlers.pauseUploads).not.toHaveBeenCalled();
  });

  it('while paused for a while, offers to resume and says until when', () => {
    const ends = new Date();
    ends.setHours(ends.getHours() + 1, 30, 0, 0);
    const time = `${String(ends.getHours()).padStart(2, '0')}:30`;
    const sync = syncView({ state: 'paused', queuePaused: true, queuePausedUntil: ends.toISOString() });
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers);
    expect(item(template, 'pause-hour')).toBeUndefined();
    expect(item(template, 'pause-tomorrow')).toBeUndefined();
    expect(item(template, 'resume')!.label).toMatch(new RegExp(`^Resume uploads \\(paused until (tomorrow )?${time}\\)$`));
    click(item(template, 'resume'));
    expect(handlers.resumeUploads).toHaveBeenCalledOnce();
  });

  it('greys the timed pauses out without a sync folder, and leaves them out where the host cannot ask for them', () => {
    const none = syncView({ state: 'not-set-up', folder: null });
    const template = trayMenuTemplate(trayView(none), none, actions());
    expect(item(template, 'pause-hour')!.enabled).toBe(false);
    expect(item(template, 'pause-tomorrow')!.enabled).toBe(false);
    const { pauseUploadsFor: _left, ...without } = actions();
    const plain = trayMenuTemplate(trayView(syncView()), syncView(), without);
    expect(item(plain, 'pause-hour')).toBeUndefined();
    expect(item(plain, 'pause')).toBeDefined();
  });
});
