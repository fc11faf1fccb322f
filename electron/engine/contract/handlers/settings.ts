import type { SettingsView, StartAtLoginView } from '../../../../shared';
import type { LanguageSetting } from '../../../../shared/i18n/locales';
import { ProxyAddressError } from '../../api/proxy-agents';
import type { EngineServices } from '../../composition/engine-services';
import { engineLog } from '../../log/engine-log';
import type { AppSettings } from '../../runtime/app-settings';
import { EngineError } from '../../runtime/engine-error';
import type { ProxyChange } from '../../runtime/proxy-setup';
import { languageSetting, LanguageUnavailableError, pseudoLocaleOffered, setLanguage } from '../../settings/language';
import { changeStartAtLogin, START_AT_LOGIN_DESKTOP_ONLY, StartAtLoginUnavailableError } from '../../settings/start-at-login';
import type { Handlers } from '../handler-types';
import { iso } from '../views/iso';

function startAtLoginView(settings: AppSettings): StartAtLoginView {
  const asked = settings.read().startAtLoginAsked === true;
  return settings.startAtLogin
    ? { available: true, on: settings.startAtLogin.isOn(), asked, unavailableReason: null }
    : { available: false, on: false, asked, unavailableReason: START_AT_LOGIN_DESKTOP_ONLY };
}

async function setStartAtLogin(settings: AppSettings, on: boolean): Promise<void> {
  try {
    await changeStartAtLogin(settings.startAtLogin, settings.store, on);
  } catch (error) {
    if (error instanceof StartAtLoginUnavailableError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { startAtLogin: [error.message] } });
    engineLog.warn('settings', `starting at login could not be turned ${on ? 'on' : 'off'}`, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngineError({ kind: 'internal', message: `design-sync could not ${on ? 'be set to start' : 'stop starting'} at login: ${reason}` });
  }
}

function settingsView({ settings, connection, catalogue, library }: Pick<EngineServices, 'settings' | 'connection' | 'catalogue' | 'library'>): SettingsView {
  const web = connection.webAddress();
  const cache = settings.cacheUse();
  return {
    serviceUrl: connection.serviceUrl(),
    webUrl: web.webUrl,
    webUrlDerived: web.derived,
    cacheLimitBytes: cache.limitBytes,
    cacheBytes: cache.bytes,
    cacheDesigns: library.cachedDesigns(),
    catalogueCheckedAt: iso(catalogue.lastPullAt()),
    catalogueRefreshMinutes: settings.catalogueRefreshMinutes(),
    reviewBeforePublishing: settings.reviewBeforePublishing(),
    startAtLogin: startAtLoginView(settings),
    ...settings.bandwidthLimits(),
    // Never the password: only whether one is kept (runtime/proxy-setup.ts).
    proxy: settings.proxy.status(connection.serviceUrl()),
    language: languageSetting(settings.store),
    pseudoLocaleOffered: pseudoLocaleOffered(),
  };
}

function chooseLanguage(settings: AppSettings, language: LanguageSetting): void {
  try {
    setLanguage(settings.store, language);
  } catch (error) {
    if (error instanceof LanguageUnavailableError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { language: [error.message] } });
    throw error;
  }
}

async function setProxy(settings: AppSettings, change: ProxyChange): Promise<void> {
  try {
    await settings.proxy.update(change);
  } catch (error) {
    if (error instanceof ProxyAddressError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { proxy: [error.message] } });
    throw error;
  }
}

export const SETTINGS_HANDLERS: Handlers<'settings.get' | 'settings.update'> = {
  'settings.get': (services) => settingsView(services),
  'settings.update': async (services, { serviceUrl, webUrl, cacheLimitMb, catalogueRefreshMinutes, reviewBeforePublishing, startAtLogin, startAtLoginAsked, maxUploadKBps, maxDownloadKBps, proxy, language }) => {
    const { settings, connection, lifecycle } = services;
    // A person typed it: saved only when a design-sharing service answers there (runtime/service-check.ts).
    if (serviceUrl !== undefined) await lifecycle.setServiceUrl(serviceUrl, { check: true });
    if (webUrl !== undefined) connection.setWebUrl(webUrl);
    if (cacheLimitMb !== undefined) settings.setCacheLimit(cacheLimitMb * 1024 * 1024);
    if (catalogueRefreshMinutes !== undefined) settings.update({ catalogueRefreshMinutes });
    if (reviewBeforePublishing !== undefined) settings.update({ reviewBeforePublishing });
    if (startAtLogin !== undefined) await setStartAtLogin(settings, startAtLogin);
    if (startAtLoginAsked) settings.update({ startAtLoginAsked: true });
    if (maxUploadKBps !== undefined || maxDownloadKBps !== undefined) {
      settings.setBandwidthLimits({ ...(maxUploadKBps !== undefined ? { maxUploadKBps } : {}), ...(maxDownloadKBps !== undefined ? { maxDownloadKBps } : {}) });
    }
    if (proxy !== undefined) await setProxy(settings, proxy);
    if (language !== undefined) chooseLanguage(settings, language);
    return settingsView(services);
  },
};
