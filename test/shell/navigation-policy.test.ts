import { describe, expect, it, vi } from 'vitest';
import { decideNavigation, decideNewWindow } from '../../electron/shell/window/navigation-policy';
import { designPageUrl } from '../../electron/engine/cache/attribution';
import { authorizationUrl } from '../../electron/engine/authorization/sign-in';

// These modules need only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded by the shell\'s decisions');
});

const serviceUrl = 'https://designs.example';

describe('navigation of the window', () => {
  it('stays on the app\'s own origin, hash routes included', () => {
    for (const url of ['app://window/index.html', 'app://window/index.html#/design/12', 'app://window/index.html?x=1']) {
      expect(decideNavigation(url), url).toBe('allow');
    }
  });

  it('never leaves it: other sites, the service, javascript:, file:, data:, look-alike hosts, credentials', () => {
    for (const url of [
      'https://designs.example/designs/gear', 'http://127.0.0.1:4321/', 'javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>1</script>',
      'app://window.evil.example/index.html', 'app://evil/index.html', 'app://window:8080/index.html', 'app://user@window/index.html',
      'about:blank', 'chrome://settings', 'devtools://devtools/bundled/inspector.html', '', 'not a url',
    ]) {
      expect(decideNavigation(url), url).toBe('deny');
    }
  });
});

describe('links that would open a new window', () => {
  it('never opens a window, and opens a design\'s page of the service in the system browser', () => {
    for (const design of [{ id: 12, slug: 'gear-v2' }, { id: 12, slug: null }, { id: 3, slug: 'engrenage-é' }]) {
      const url = designPageUrl(serviceUrl, design);
      expect(decideNewWindow(url, { serviceUrl }), url).toEqual({ action: 'deny', openExternally: url, refusal: null });
    }
  });

  it('opens the service\'s sign-in page (the link shown while a browser sign-in waits)', () => {
    const url = authorizationUrl(serviceUrl, 'http://127.0.0.1:5555/abc', 'http://127.0.0.1:5555/abc/deny');
    expect(decideNewWindow(url, { serviceUrl })).toMatchObject({ action: 'deny', openExternally: url });
  });

  it('works under a service address with a path', () => {
    const base = 'https://example.org/service/';
    expect(decideNewWindow(designPageUrl(base, { id: 1, slug: 'gear' }), { serviceUrl: base }).openExternally).toBe('https://example.org/service/designs/gear');
    expect(decideNewWindow('https://example.org/designs/gear', { serviceUrl: base }).openExternally).toBeNull();
  });

  it('refuses a design\'s 3D files, its documents zip and the API (rule 1), even on the service', () => {
    for (const path of [
      '/designs/gear/files', '/designs/gear/documents/4/download', '/designs/gear/documents.zip', '/designs/gear.stl', '/designs/gear.zip',
      '/designs/gear%2Fdocuments', '/designs/..%2Fv1', '/uploads/documents/4/gear.stl', '/v1/designs/gear', '/v1/documents/4', '/designs/', '/designs',
      '/designs/gear?download=1', '/', '/users/ada',
    ]) {
      const decision = decideNewWindow(`${serviceUrl}${path}`, { serviceUrl });
      expect(decision.openExternally, path).toBeNull();
      expect(decision.action).toBe('deny');
      expect(decision.refusal).toEqual(expect.any(String));
    }
  });

  it('refuses other schemes, other origins and addresses with credentials, saying why', () => {
    const cases: [string, RegExp][] = [
      ['javascript:alert(document.cookie)', /javascript: scheme/],
      ['file:///home/ada/.ssh/id_rsa', /file: scheme/],
      ['data:text/html,<h1>hi</h1>', /data: scheme/],
      ['design-sync://open?x', /design-sync: scheme/],
      ['ms-msdt:/id PCWDiagnostic', /ms-msdt: scheme/],
      ['smb://attacker/share', /smb: scheme/],
      ['https://evil.example/designs/gear', /only pages of https:\/\/designs.example/],
      ['http://designs.example/designs/gear', /only pages of/],
      ['https://designs.example:8443/designs/gear', /only pages of/],
      ['https://designs.example.evil.example/designs/gear', /only pages of/],
      ['https://ada:secret@designs.example/designs/gear', /user name or password/],
      ['not an address', /not a valid address/],
    ];
    for (const [url, reason] of cases) {
      const decision = decideNewWindow(url, { serviceUrl });
      expect(decision, url).toMatchObject({ action: 'deny', openExternally: null });
      expect(decision.refusal, url).toMatch(reason);
      expect(decision.refusal).not.toContain('secret');
    }
  });

  it('opens nothing while no service is configured', () => {
    expect(decideNewWindow(`${serviceUrl}/designs/gear`, { serviceUrl: null })).toMatchObject({ openExternally: null, refusal: 'no service is configured' });
    expect(decideNewWindow('file:///x/designs/gear', { serviceUrl: 'file:///x' }).openExternally).toBeNull();
  });
});
