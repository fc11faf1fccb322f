/** proxy-from-env ships no types: the one function the engine uses. */
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from HTTPS_PROXY / HTTP_PROXY / ALL_PROXY and NO_PROXY (either case); '' for none. */
  export function getProxyForUrl(url: string | URL): string;
}
