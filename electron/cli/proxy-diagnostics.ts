import { FileTokenStore } from '../engine/authorization/file-token-store';
import type { ProfilePaths } from '../engine/profile/profile';
import { proxyPasswordFile } from '../engine/runtime/open-engine';
import { ProxySetup, proxyDiagnosticsLine, proxyOverride } from '../engine/runtime/proxy-setup';
import type { SettingsStore } from '../engine/settings/settings-store';

/**
 * `status --diagnostics`' proxy line, without opening the engine: the profile's setting (and this run's --proxy) as
 * the engine would apply it, the proxy the service's requests take, never a password. Its problem in words when the
 * setting cannot be used.
 */
export async function proxyDiagnostics(profile: ProfilePaths, settings: SettingsStore, override: string | undefined): Promise<{ line: string; secrets: string[] }> {
  const serviceUrl = settings.read().serviceUrl ?? null;
  try {
    const setup = new ProxySetup(settings, new FileTokenStore(proxyPasswordFile(profile)), override !== undefined ? proxyOverride(override) : null);
    await setup.load();
    return { line: proxyDiagnosticsLine(setup.status(serviceUrl), serviceUrl), secrets: setup.secrets() };
  } catch (error) {
    return { line: `Proxy: cannot be used: ${error instanceof Error ? error.message : String(error)}`, secrets: [] };
  }
}
