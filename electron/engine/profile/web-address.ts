/**
 * A profile's two addresses (spec §5): the API ({base_url}, settings `serviceUrl`) and the service's web site
 * ({auth_url}, settings `webUrl`): where the browser signs in and where design pages are opened. Real clients open
 * design pages on www.youmagine.com while the API is api.youmagine.com (LegacyCura, docs/service-choices.md).
 */

/**
 * The web address a service's API address implies: a host beginning with `api.` becomes `www.` (a trailing `/v1`
 * path dropped: the web site has none); any other address is its own web address (the local service serves both).
 */
export function derivedWebAddress(serviceUrl: string): string {
  const url = new URL(serviceUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '');
  const host = /^api\./i.test(url.hostname) ? `www.${url.hostname.slice(4)}` : url.hostname;
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${path}`;
}

/** The web address in force: the one the person set, else the one derived from the API address; null without a service. */
export function webAddressOf(settings: { serviceUrl?: string | undefined; webUrl?: string | undefined }): string | null {
  if (settings.webUrl) return settings.webUrl;
  return settings.serviceUrl ? derivedWebAddress(settings.serviceUrl) : null;
}

/** Normalizes a web address given by a person (trimmed, no trailing slash, http or https only); throws in words. */
export function normalizeWebAddress(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`Not a web address: ${JSON.stringify(raw)} (expected e.g. https://www.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`The web address must start with http:// or https://, got ${JSON.stringify(raw)}`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}
