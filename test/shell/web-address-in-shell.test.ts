import { describe, expect, it, vi } from 'vitest';
import { designPageUrl } from '../../electron/engine/cache/attribution';
import { authorizationUrl } from '../../electron/engine/authorization/sign-in';
import { appMenuTemplate } from '../../electron/shell/menu/app-menu';
import { decideNewWindow } from '../../electron/shell/window/navigation-policy';

// These modules need only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded by the shell\'s decisions');
});

/** The real service's two hosts: the API on api., the web site (sign-in, design pages) on www. */
const serviceUrl = 'https://api.designs.example';
const derivedWeb = 'https://www.designs.example';
const signInPage = (site: string) => authorizationUrl(site, 'http://127.0.0.1:5000/callback', 'http://127.0.0.1:5000/denied');

describe('the shell opens pages of the service\'s web address', () => {
  it('design pages and the sign-in page of the derived web address (www. for api.), not of the API\'s host', () => {
    for (const url of [designPageUrl(derivedWeb, { id: 12, slug: 'gear' }), signInPage(derivedWeb)]) {
      expect(decideNewWindow(url, { serviceUrl }).openExternally, url).toBe(url);
    }
    for (const url of [designPageUrl(serviceUrl, { id: 12, slug: 'gear' }), signInPage(serviceUrl)]) {
      expect(decideNewWindow(url, { serviceUrl }).openExternally, url).toBeNull();
    }
  });

  it('those of the web address the person set, when set; an empty one is the derived one', () => {
    const site = 'https://designs.example/share';
    const page = designPageUrl(site, { id: 3, slug: null });
    expect(decideNewWindow(page, { serviceUrl, webUrl: site }).openExternally).toBe(page);
    expect(decideNewWindow(signInPage(site), { serviceUrl, webUrl: site }).openExternally).toBe(signInPage(site));
    expect(decideNewWindow(designPageUrl(derivedWeb, { id: 3, slug: null }), { serviceUrl, webUrl: site }).refusal).toMatch(/only pages of https:\/\/designs\.example/);
    expect(decideNewWindow(designPageUrl(derivedWeb, { id: 3, slug: null }), { serviceUrl, webUrl: '' }).openExternally).toBe(`${derivedWeb}/designs/3`);
  });

  it('Help opens the web site, named by its host', () => {
    const openServiceSite = vi.fn();
    const template = appMenuTemplate({ platform: 'linux', isPackaged: true, serviceUrl, webUrl: derivedWeb }, { openServiceSite, quit: vi.fn() });
    const help = template.find((entry) => entry.role === 'help')!;
    const item = (help.submenu as { id?: string; label?: string; click?: () => void }[]).find((entry) => entry.id === 'service-site')!;
    expect(item.label).toBe('Open www.designs.example');
    item.click!();
    expect(openServiceSite).toHaveBeenCalledWith(derivedWeb);
  });
});
