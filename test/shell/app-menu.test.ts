import { describe, expect, it, vi } from 'vitest';
import { appMenuTemplate } from '../../electron/shell/menu/app-menu';

// These modules need only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded by the shell\'s decisions');
});

/** Electron's MenuItemConstructorOptions, named without importing electron (tests stay in plain Node). */
type MenuItemConstructorOptions = ReturnType<typeof appMenuTemplate>[number];

const roles = (items: MenuItemConstructorOptions[]): string[] => items.flatMap((entry) => [
  ...(entry.role ? [entry.role] : []),
  ...(Array.isArray(entry.submenu) ? roles(entry.submenu) : []),
]);
const menu = (template: MenuItemConstructorOptions[], label: string) => template.find((entry) => entry.label === label || entry.role === label)!;
const actions = () => ({ openServiceSite: vi.fn(), quit: vi.fn() });

describe('the application menu', () => {
  it('has the usual roles: edit, zoom, full screen, window', () => {
    const all = roles(appMenuTemplate({ platform: 'linux', isPackaged: true, serviceUrl: null }, actions()));
    for (const role of ['close', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'windowMenu', 'minimize', 'help']) {
      expect(all, role).toContain(role);
    }
  });

  it('has no Reload and no DevTools in a shipped app, and both in development', () => {
    const shipped = roles(appMenuTemplate({ platform: 'linux', isPackaged: true, serviceUrl: null }, actions()));
    for (const role of ['reload', 'forceReload', 'toggleDevTools']) expect(shipped).not.toContain(role);
    const development = roles(appMenuTemplate({ platform: 'linux', isPackaged: false, serviceUrl: null }, actions()));
    for (const role of ['reload', 'forceReload', 'toggleDevTools']) expect(development).toContain(role);
  });

  it('gives macOS its app menu, with Quit there, and Quit in File elsewhere', () => {
    const handlers = actions();
    const mac = appMenuTemplate({ platform: 'darwin', isPackaged: true, serviceUrl: null }, handlers);
    expect(mac[0]!.label).toBe('design-sync');
    expect(roles([mac[0]!])).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide']);
    expect((mac[0]!.submenu as MenuItemConstructorOptions[]).at(-1)).toMatchObject({ id: 'quit', label: 'Quit design-sync', accelerator: 'CmdOrCtrl+Q' });
    expect(roles([menu(mac, 'windowMenu')])).toContain('front');
    expect(roles(appMenuTemplate({ platform: 'linux', isPackaged: true, serviceUrl: null }, handlers))).not.toContain('about');

    const linux = appMenuTemplate({ platform: 'win32', isPackaged: true, serviceUrl: null }, handlers);
    const quit = (menu(linux, '&File').submenu as MenuItemConstructorOptions[]).find((entry) => entry.id === 'quit')!;
    (quit.click as () => void)();
    expect(handlers.quit).toHaveBeenCalledOnce();
  });

  it('opens the service\'s site from Help, and greys it out with no service', () => {
    const handlers = actions();
    const help = (serviceUrl: string | null) => (menu(appMenuTemplate({ platform: 'linux', isPackaged: true, serviceUrl }, handlers), 'help').submenu as MenuItemConstructorOptions[])[0]!;
    const site = help('https://designs.example');
    expect(site).toMatchObject({ label: 'Open designs.example', enabled: true });
    (site.click as () => void)();
    expect(handlers.openServiceSite).toHaveBeenCalledWith('https://designs.example');
    const none = help(null);
    expect(none.enabled).toBe(false);
    (none.click as () => void)();
    expect(handlers.openServiceSite).toHaveBeenCalledOnce();
  });
});
