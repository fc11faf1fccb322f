/** The update items of the tray's menu and the application menu, from the update controller's view. */
import { describe, expect, it, vi } from 'vitest';
import type { UpdatesView } from '../../shared/updates/updates-view';
import { appMenuTemplate } from '../../electron/shell/menu/app-menu';
import { trayMenuTemplate } from '../../electron/shell/tray/tray-menu';
import { trayView } from '../../electron/shell/tray/tray-state';
import { syncView } from './shell-fixtures';

vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

type MenuItemConstructorOptions = ReturnType<typeof trayMenuTemplate>[number];

const updates = (overrides: Partial<UpdatesView> = {}): UpdatesView => ({
  state: 'up-to-date', currentVersion: '1.0.0', version: null, percent: null, reason: null, feed: 'https://updates.design-sync.example/',
  channel: 'latest', lastCheckedAt: '2026-11-29T08:00:00.000Z', nextCheckAt: '2026-11-30T08:00:00.000Z', ...overrides,
});
const flat = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
  items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flat(item.submenu) : [])]);
const find = (items: MenuItemConstructorOptions[], id: string) => flat(items).find((item) => item.id === id);
const click = (item: MenuItemConstructorOptions | undefined) => (item!.click as () => void)();

describe('the tray\'s update items', () => {
  const actions = () => ({ openWindow: vi.fn(), openSyncFolder: vi.fn(), syncNow: vi.fn(), pauseUploads: vi.fn(), resumeUploads: vi.fn(), quit: vi.fn(), checkForUpdates: vi.fn(), restartToUpdate: vi.fn() });
  const sync = syncView();

  it('offers "Check for updates" before Quit, and checks when chosen', () => {
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers, undefined, updates());
    expect(template.map((item) => item.id ?? item.type).slice(-3)).toEqual(['check-for-updates', 'separator', 'quit']);
    click(find(template, 'check-for-updates'));
    expect(handlers.checkForUpdates).toHaveBeenCalledTimes(1);
    expect(find(template, 'restart-to-update')).toBeUndefined();
  });

  it('offers "Restart to update" once a verified update is ready', () => {
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers, undefined, updates({ state: 'ready', version: '1.1.0' }));
    expect(find(template, 'restart-to-update')).toMatchObject({ label: 'Restart to update to 1.1.0' });
    expect(find(template, 'check-for-updates')).toMatchObject({ label: 'Version 1.1.0 is ready: it installs when design-sync quits', enabled: false });
    click(find(template, 'restart-to-update'));
    expect(handlers.restartToUpdate).toHaveBeenCalledTimes(1);
  });

  it('shows a download or a restart waiting for uploads as greyed-out words', () => {
    const downloading = trayMenuTemplate(trayView(sync), sync, actions(), undefined, updates({ state: 'downloading', version: '1.1.0', percent: 42.7 }));
    expect(find(downloading, 'check-for-updates')).toMatchObject({ label: 'Downloading version 1.1.0 (42%)…', enabled: false });
    const waiting = trayMenuTemplate(trayView(sync), sync, actions(), undefined, updates({ state: 'waiting-for-uploads', version: '1.1.0' }));
    expect(find(waiting, 'check-for-updates')).toMatchObject({ label: 'Version 1.1.0 installs once the files being sent are done', enabled: false });
    expect(find(waiting, 'restart-to-update')).toBeUndefined();
  });

  it('has no update items when the shell gives no update state', () => {
    expect(find(trayMenuTemplate(trayView(sync), sync, actions()), 'check-for-updates')).toBeUndefined();
  });
});

describe('the application menu\'s update items', () => {
  const input = { isPackaged: true, serviceUrl: 'https://designs.example' };
  const actions = () => ({ openServiceSite: vi.fn(), quit: vi.fn(), checkForUpdates: vi.fn(), restartToUpdate: vi.fn() });

  it('puts "Check for Updates…" in the app menu on macOS and in Help elsewhere', () => {
    const mac = appMenuTemplate({ ...input, platform: 'darwin', updates: updates() }, actions());
    expect(((mac[0]!.submenu as MenuItemConstructorOptions[]).map((item) => item.id ?? item.role ?? item.type)).slice(0, 3)).toEqual(['about', 'check-for-updates', 'separator']);
    const linux = appMenuTemplate({ ...input, platform: 'linux', updates: updates() }, actions());
    const help = linux.find((menu) => menu.role === 'help')!.submenu as MenuItemConstructorOptions[];
    expect(help.map((item) => item.id ?? item.type)).toEqual(['service-site', 'separator', 'check-for-updates']);
  });

  it('checks, and restarts to update once one is ready', () => {
    const handlers = actions();
    const menu = appMenuTemplate({ ...input, platform: 'win32', updates: updates({ state: 'ready', version: '1.1.0' }) }, handlers);
    expect(find(menu, 'restart-to-update')).toMatchObject({ label: 'Restart to Update to 1.1.0' });
    click(find(menu, 'restart-to-update'));
    expect(handlers.restartToUpdate).toHaveBeenCalledTimes(1);
    const idle = appMenuTemplate({ ...input, platform: 'win32', updates: updates() }, handlers);
    click(find(idle, 'check-for-updates'));
    expect(handlers.checkForUpdates).toHaveBeenCalledTimes(1);
  });

  it('says why in a copy that cannot update itself', () => {
    const menu = appMenuTemplate({ ...input, platform: 'linux', updates: updates({ state: 'unavailable', reason: 'This is a development build of design-sync.' }) }, actions());
    expect(find(menu, 'check-for-updates')).toMatchObject({ label: 'Updates are not available in this copy', enabled: false });
  });
});

describe('the notification of an update', () => {
  it('tells once that a verified update is ready, and nothing of checks, downloads or failures', async () => {
    const { updateNotice } = await import('../../electron/shell/updates/update-notice');
    const ready = updates({ state: 'ready', version: '1.1.0' });
    expect(updateNotice(updates({ state: 'downloading', version: '1.1.0', percent: 99 }), ready)).toEqual({
      title: 'design-sync 1.1.0 is ready', body: 'It installs when you quit design-sync. To install it now, choose “Restart to update to 1.1.0” in the tray.', route: '#/settings',
    });
    expect(updateNotice(ready, { ...ready })).toBeNull();
    for (const state of ['checking', 'downloading', 'failed', 'up-to-date', 'waiting-for-uploads', 'installing', 'unavailable'] as const) {
      expect(updateNotice(ready, updates({ state })), state).toBeNull();
    }
  });
});
