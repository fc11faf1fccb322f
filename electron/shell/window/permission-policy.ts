import type { Session } from 'electron';
import { APP_ORIGIN } from './content-security-policy';
import { schemeHostPort } from './navigation-policy';

/**
 * The window asks for no browser permission: it shows no notification itself (the main process does, natively), reads
 * no clipboard, no camera, microphone, location, MIDI, USB, HID, serial, Bluetooth, fullscreen or pointer lock. Copy
 * and paste work through the Edit menu's roles, which are not permission requests. So every request and every check is
 * refused: Electron's default is to grant them all.
 */
export function decidePermission(_permission: string): boolean {
  return false;
}

/** DevTools only in a development build: a shipped app has no console into the window's context. */
export function shouldAllowDevTools(isPackaged: boolean): boolean {
  return !isPackaged;
}

/**
 * The only requests the window's session makes: its own `app://` addresses. `devtools:` is Chromium's own inspector
 * (its pages load through the same session when DevTools are open in a development build).
 */
export function isAllowedRequest(url: string, { appOrigin = APP_ORIGIN, allowDevTools = false }: { appOrigin?: string; allowDevTools?: boolean } = {}): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (allowDevTools && parsed.protocol === 'devtools:') return true;
  return schemeHostPort(parsed) === appOrigin;
}

/** The parts of an Electron session that hardening touches: a test passes a fake of this shape. */
export type HardenableSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'on'> & {
  webRequest: Pick<Session['webRequest'], 'onBeforeRequest'>;
};

export interface HardenOptions {
  appOrigin?: string;
  /** `!app.isPackaged`: lets DevTools' own pages load. */
  allowDevTools?: boolean;
  /** Told each refusal in words (never with a secret: addresses are cut to their origin). */
  log?: (message: string) => void;
}

/**
 * Installs the window session's policy: every permission refused (requests, checks, devices), no downloads, and no
 * request to anything but the app's own origin. Returns the session for chaining.
 */
export function hardenSession<S extends HardenableSession>(session: S, options: HardenOptions = {}): S {
  const { appOrigin = APP_ORIGIN, allowDevTools = false, log = () => {} } = options;
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    log(`Refused the window's request for the '${permission}' permission.`);
    callback(decidePermission(permission));
  });
  session.setPermissionCheckHandler((_webContents, permission) => decidePermission(permission));
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event, item) => {
    event.preventDefault();
    log(`Refused a download in the window (${originForLog(item.getURL())}).`);
  });
  session.webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
    const allowed = isAllowedRequest(details.url, { appOrigin, allowDevTools });
    if (!allowed) log(`Blocked a request of the window to ${originForLog(details.url)}.`);
    callback({ cancel: !allowed });
  });
  return session;
}

/** An address cut to its scheme and host: what a log line may hold (a query or a path could carry a secret). */
export function originForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.protocol;
  } catch {
    return 'an invalid address';
  }
}
