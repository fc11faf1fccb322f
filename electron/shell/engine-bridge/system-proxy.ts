/**
 * The system's proxy for the service, as Chromium resolves it (session.resolveProxy: the system's settings, a PAC
 * script or WPAD), handed to the engine process, which has no way to ask. Plain Node: the session is given.
 */

/** The part of Electron's Session this uses. */
export interface ProxyResolver {
  resolveProxy(url: string): Promise<string>;
}

/**
 * The first proxy of a PAC answer ("PROXY corp:8080; DIRECT", "HTTPS corp:443") as a URL, or null for DIRECT. SOCKS
 * proxies are not spoken by the engine: they are skipped (`skipped` is told), and the next entry is taken.
 */
export function proxyFromPac(answer: string, skipped: (entry: string) => void = () => undefined): string | null {
  for (const raw of answer.split(';')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [kind = '', address = ''] = entry.split(/\s+/, 2);
    switch (kind.toUpperCase()) {
      case 'DIRECT':
        return null;
      case 'PROXY':
        if (address) return `http://${address}`;
        break;
      case 'HTTPS':
        if (address) return `https://${address}`;
        break;
      default:
        skipped(entry);
    }
  }
  return null;
}

/**
 * The system's proxy for `serviceUrl` (null: direct, or no service yet), or undefined when it could not be resolved
 * (the engine then reads the environment only). `log` hears why.
 */
export async function resolveSystemProxy(resolver: ProxyResolver, serviceUrl: string | null | undefined, log: (line: string) => void): Promise<string | null | undefined> {
  if (!serviceUrl) return undefined;
  try {
    const answer = await resolver.resolveProxy(serviceUrl);
    return proxyFromPac(answer, (entry) => log(`design-sync: the system's proxy "${entry}" is not one design-sync can use (SOCKS); trying the next`));
  } catch (error) {
    log(`design-sync: the system's proxy for ${new URL(serviceUrl).host} cannot be resolved (${error instanceof Error ? error.message : String(error)}); the environment's is used`);
    return undefined;
  }
}
