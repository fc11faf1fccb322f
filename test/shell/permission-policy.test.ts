import { describe, expect, it, vi } from 'vitest';
import { decidePermission, hardenSession, isAllowedRequest, originForLog, shouldAllowDevTools, type HardenableSession } from '../../electron/shell/window/permission-policy';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

type Listener = (...args: never[]) => unknown;

/** A session that records the handlers hardening installs, so the test can call them as Chromium would. */
function fakeSession() {
  const installed: { request?: Listener; check?: Listener; device?: Listener; beforeRequest?: Listener; filter?: unknown; events: Map<string, Listener> } = { events: new Map() };
  const session = {
    setPermissionRequestHandler: (handler: Listener) => { installed.request = handler; },
    setPermissionCheckHandler: (handler: Listener) => { installed.check = handler; },
    setDevicePermissionHandler: (handler: Listener) => { installed.device = handler; },
    on: (event: string, listener: Listener) => { installed.events.set(event, listener); return session; },
    webRequest: { onBeforeRequest: (filter: unknown, listener: Listener) => { installed.filter = filter; installed.beforeRequest = listener; } },
  };
  return { session: session as unknown as HardenableSession, installed };
}

const call = (handler: Listener | undefined, ...args: unknown[]) => (handler as unknown as (...a: unknown[]) => unknown)(...args);

describe('the window session\'s permission policy', () => {
  const permissions = ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'fullscreen', 'pointerLock', 'midiSysex', 'openExternal', 'hid', 'serial', 'usb', 'display-capture', 'unknown'];

  it('refuses every permission request, answering each at once', () => {
    const { session, installed } = fakeSession();
    const logged: string[] = [];
    hardenSession(session, { log: (line) => logged.push(line) });
    for (const permission of permissions) {
      const answers: boolean[] = [];
      call(installed.request, {}, permission, (granted: boolean) => answers.push(granted), { requestingUrl: 'app://window/index.html' });
      expect(answers, permission).toEqual([false]);
    }
    expect(logged).toContain("Refused the window's request for the 'media' permission.");
  });

  it('refuses every permission check and every device', () => {
    const { session, installed } = fakeSession();
    hardenSession(session);
    for (const permission of permissions) expect(call(installed.check, null, permission, 'app://window', {}), permission).toBe(false);
    expect(call(installed.device, { deviceType: 'usb', origin: 'app://window' })).toBe(false);
    expect(permissions.some((permission) => decidePermission(permission))).toBe(false);
  });

  it('refuses every download, logging only where it came from', () => {
    const { session, installed } = fakeSession();
    const logged: string[] = [];
    hardenSession(session, { log: (line) => logged.push(line) });
    let prevented = false;
    call(installed.events.get('will-download'), { preventDefault: () => { prevented = true; } }, { getURL: () => 'https://designs.example/files/gear.stl?auth_token=secret' });
    expect(prevented).toBe(true);
    expect(logged).toEqual(['Refused a download in the window (https://designs.example).']);
  });

  it('blocks every request but the app\'s own, whatever its type', () => {
    const { session, installed } = fakeSession();
    const logged: string[] = [];
    hardenSession(session, { log: (line) => logged.push(line) });
    expect(installed.filter).toEqual({ urls: ['<all_urls>'] });
    const answer = (url: string) => {
      const responses: { cancel?: boolean }[] = [];
      call(installed.beforeRequest, { url, resourceType: 'image' }, (response: { cancel?: boolean }) => responses.push(response));
      return responses;
    };
    expect(answer('app://window/files/images/4/large')).toEqual([{ cancel: false }]);
    for (const url of ['https://designs.example/v1/designs?auth_token=t0ken', 'http://127.0.0.1:4321/', 'ws://127.0.0.1:4321/', 'file:///etc/passwd', 'app://evil/x', 'https://tracker.example/pixel.gif', 'devtools://devtools/bundled/inspector.html']) {
      expect(answer(url), url).toEqual([{ cancel: true }]);
    }
    expect(logged.join('\n')).not.toContain('t0ken');
    expect(logged).toContain('Blocked a request of the window to https://tracker.example.');
  });

  it('lets DevTools\' own pages load only in a development build', () => {
    expect(isAllowedRequest('devtools://devtools/bundled/inspector.html', { allowDevTools: true })).toBe(true);
    expect(isAllowedRequest('devtools://devtools/bundled/inspector.html')).toBe(false);
    expect(isAllowedRequest('https://designs.example/', { allowDevTools: true })).toBe(false);
    expect(shouldAllowDevTools(false)).toBe(true);
    expect(shouldAllowDevTools(true)).toBe(false);
  });

  it('cuts addresses to their origin for the log', () => {
    expect(originForLog('https://a.example/path?auth_token=x#y')).toBe('https://a.example');
    expect(originForLog('javascript:alert(1)')).toBe('javascript:');
    expect(originForLog('::')).toBe('an invalid address');
  });
});
