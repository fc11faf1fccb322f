import { currentRoute, environmentNamesProxy } from '../engine/api/proxy-agents';
import { FileTokenStore } from '../engine/authorization/file-token-store';
import type { ProfilePaths } from '../engine/profile/profile';
import { proxyPasswordFile } from '../engine/runtime/open-engine';
import { ProxySetup, proxyOverride, type ProxyStatus } from '../engine/runtime/proxy-setup';
import type { SettingsStore } from '../engine/settings/settings-store';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';

/** The proxy setting in words: its mode, a manual proxy's address and user (never its password, only whether one is kept). */
function settingWords(status: ProxyStatus, words: Words): string {
  if (status.mode === 'manual') {
    const address = `${status.host}:${status.port ?? 8080}`;
    return status.username
      ? words.formatMessage({ id: 'cli.diagnostics.proxy.manualWithUser' }, { address, user: status.username, password: status.passwordSet ? 'kept' : 'none' })
      : words.formatMessage({ id: 'cli.diagnostics.proxy.manual' }, { address });
  }
  if (status.mode === 'none') return words.formatMessage({ id: 'cli.diagnostics.proxy.none' });
  return words.formatMessage({ id: environmentNamesProxy() ? 'cli.diagnostics.proxy.systemWithEnvironment' : 'cli.diagnostics.proxy.system' });
}

/** The line for a loaded setup: the proxy the service's requests take and where it came from, or none; the setting. */
function proxyLine(setup: ProxySetup, serviceUrl: string | null, overridden: boolean, words: Words): string {
  const status = setup.status(serviceUrl);
  if (status.problem) return words.formatMessage({ id: 'cli.diagnostics.proxy.unusable' }, { problem: status.problem });
  const setting = settingWords(status, words);
  const service = serviceUrl ? new URL(serviceUrl).host : '';
  const route = serviceUrl ? currentRoute(new URL(serviceUrl)) : null;
  if (!route) return words.formatMessage({ id: serviceUrl ? 'cli.diagnostics.proxy.directFor' : 'cli.diagnostics.proxy.direct' }, { service, setting });
  const from = route.source === 'manual' ? (overridden ? 'option' : 'settings') : route.source;
  return words.formatMessage({ id: 'cli.diagnostics.proxy.through' }, { proxy: route.shown, service, from, setting });
}

/**
 * `status --diagnostics`' proxy line, without opening the engine: the profile's setting (and this run's --proxy) as
 * the engine would apply it, the proxy the service's requests take, never a password. Its problem in words when the
 * setting cannot be used.
 */
export async function proxyDiagnostics(profile: ProfilePaths, settings: SettingsStore, override: string | undefined, words: Words = ENGLISH_INTL): Promise<{ line: string; secrets: string[] }> {
  const serviceUrl = settings.read().serviceUrl ?? null;
  try {
    const setup = new ProxySetup(settings, new FileTokenStore(proxyPasswordFile(profile)), override !== undefined ? proxyOverride(override) : null);
    await setup.load();
    return { line: proxyLine(setup, serviceUrl, override !== undefined, words), secrets: setup.secrets() };
  } catch (error) {
    return { line: words.formatMessage({ id: 'cli.diagnostics.proxy.unusable' }, { problem: error instanceof Error ? error.message : String(error) }), secrets: [] };
  }
}
