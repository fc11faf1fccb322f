import { webAddressOf } from '../../engine/profile/web-address';
import { APP_ORIGIN } from './content-security-policy';

/**
 * Where the window may go, and what it may open outside. The window's page is the app's own: it never navigates away
 * (`will-navigate`, `will-redirect`, `will-frame-navigate`), and it never opens a window of its own
 * (`setWindowOpenHandler`). A link the person follows is opened in the system browser only when it is a page of the
 * configured service's web site (its web address: profile/web-address.ts) a person should see: a design's page (spec
 * §1 rule 1: the design, never its 3D files) or the service's sign-in page. Everything else is refused, with a reason
 * to log.
 */

export type NavigationDecision = 'allow' | 'deny';

/** Hash routes (`#/design/12`) change the fragment only; any other address is a navigation away. */
export function decideNavigation(url: string, { appOrigin = APP_ORIGIN }: { appOrigin?: string } = {}): NavigationDecision {
  const parsed = parseUrl(url);
  return parsed !== null && schemeHostPort(parsed) === appOrigin ? 'allow' : 'deny';
}

/**
 * `scheme://host[:port]`, also for a custom scheme (where WHATWG's `origin` is the opaque 'null'); null when the address
 * carries a user name or password, which the app's own never does.
 */
export function schemeHostPort(url: URL): string | null {
  if (url.username || url.password || !url.host) return null;
  return `${url.protocol}//${url.host}`;
}

export interface NewWindowDecision {
  /** Always 'deny': no window but the main one ever opens. */
  action: 'deny';
  /** The address to hand to `shell.openExternal`, normalised; null when refused. */
  openExternally: string | null;
  /** Why it was refused, for the log (the address is not repeated: it may carry a secret). */
  refusal: string | null;
}

/** The one application name registered with the service (spec §5.1; the engine's `APPLICATION_SLUG`). */
const SIGN_IN_PATH = /^\/integrations\/design-sync\/authorized_integrations\/new$/;

/** Extensions of files a design page must never be: models, archives, documents (rule 1). */
const FILE_EXTENSION = /\.(stl|obj|3mf|amf|ply|step|stp|iges|igs|scad|jscad|ctm|fcstd|blend|dae|gltf|glb|fbx|zip|7z|rar|gz|tgz|tar|pdf|svg|dxf|gcode)$/i;

/** `webUrl`: the web address the person set (settings `webUrl`); without it, the one derived from `serviceUrl`. */
export function decideNewWindow(url: string, { serviceUrl, webUrl }: { serviceUrl: string | null; webUrl?: string | null | undefined }): NewWindowDecision {
  const refuse = (refusal: string): NewWindowDecision => ({ action: 'deny', openExternally: null, refusal });
  const parsed = parseUrl(url);
  if (parsed === null) return refuse('not a valid address');
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refuse(`the ${parsed.protocol} scheme is never opened`);
  if (parsed.username || parsed.password) return refuse('an address with a user name or password is never opened');
  if (!serviceUrl) return refuse('no service is configured');
  const configured = parseUrl(serviceUrl) === null ? null : webAddressOf({ serviceUrl, webUrl: webUrl ?? undefined });
  const service = configured === null ? null : parseUrl(configured);
  if (service === null || (service.protocol !== 'https:' && service.protocol !== 'http:')) return refuse('the configured service address is not a web address');
  if (parsed.origin !== service.origin) return refuse(`only pages of ${service.origin} are opened, not of ${parsed.origin}`);

  const base = service.pathname.replace(/\/+$/, '');
  if (!parsed.pathname.startsWith(`${base}/`)) return refuse('not under the service\'s address');
  const path = parsed.pathname.slice(base.length);
  if (isDesignPagePath(path)) {
    if (parsed.search) return refuse('a design page is opened without a query');
    return { action: 'deny', openExternally: `${parsed.origin}${parsed.pathname}${parsed.hash}`, refusal: null };
  }
  if (SIGN_IN_PATH.test(path)) return { action: 'deny', openExternally: parsed.href, refusal: null };
  return refuse('only a design\'s page or the sign-in page of the service is opened (never a design\'s files)');
}

/** `/designs/<id or slug>`, one segment that decodes to a plain name, not a file. */
function isDesignPagePath(path: string): boolean {
  const match = /^\/designs\/([^/]+)$/.exec(path);
  if (!match) return false;
  let segment: string;
  try {
    segment = decodeURIComponent(match[1]!);
  } catch {
    return false;
  }
  if (segment === '.' || segment === '..' || /[/\\\u0000-\u001f]/.test(segment)) return false;
  return !FILE_EXTENSION.test(segment);
}

function parseUrl(url: string): URL | null {
  if (typeof url !== 'string' || url.length > 8192) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
