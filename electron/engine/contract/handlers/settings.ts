import type { Library } from '../../library/library';
import type { Engine } from '../../runtime/engine';
import { webAddressFacts } from '../../runtime/service-address';
import type { SettingsView, StartAtLoginView } from '../../../../shared';
import { changeStartAtLogin, START_AT_LOGIN_DESKTOP_ONLY, StartAtLoginUnavailableError } from '../../settings/start-at-login';
import { languageSetting, LanguageUnavailableError, pseudoLocaleOffered, setLanguage } from '../../settings/language';
import type { LanguageSetting } from '../../../../shared/i18n/locales';
import { EngineError } from '../../runtime/engine-error';
import { engineLog } from '../../log/engine-log';
import { ProxyAddressError } from '../../api/proxy-agents';
import type { ProxyChange } from '../../runtime/proxy-setup';
import type { Handlers } from '../handler-types';
import { iso } from '../views/iso';

function startAtLoginView(engine: Engine): StartAtLoginView {
  const asked = engine.settings.read().startAtLoginAsked === true;
  return engine.startAtLogin
    ? { available: true, on: engine.startAtLogin.isOn(), asked, unavailableReason: null }
    : { available: false, on: false, asked, unavailableReason: START_AT_LOGIN_DESKTOP_ONLY };
}

async function setStartAtLogin(engine: Engine, on: boolean): Promise<void> {
  try {
    await changeStartAtLogin(engine.startAtLogin, engine.settings, on);
  } catch (error) {
    if (error instanceof StartAtLoginUnavailableError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { startAtLogin: [error.message] } });
    engineLog.warn('settings', `starting at login could not be turned ${on ? 'on' : 'off'}`, error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngineError({ kind: 'internal', message: `design-sync could not ${on ? 'be set to start' : 'stop starting'} at login: ${reason}` });
  }
}

function settingsView(engine: Engine, library: Library): SettingsView {
  const web = webAddressFacts(engine.settings);
  return {
    serviceUrl: engine.serviceUrl(),
    webUrl: web.webUrl,
    webUrlDerived: web.derived,
    cacheLimitBytes: engine.cache.files.maxBytes,
    cacheBytes: engine.cache.files.totalBytes(),
    cacheDesigns: library.cachedDesigns(),
    catalogueCheckedAt: iso(engine.catalogue.lastPullAt()),
    catalogueRefreshMinutes: engine.catalogueRefreshMinutes(),
    reviewBeforePublishing: engine.settings.read().reviewBeforePublishing === true,
    startAtLogin: startAtLoginView(engine),
    ...engine.bandwidthLimits(),
    // Never the password: only whether one is kept (runtime/proxy-setup.ts).
    proxy: engine.proxy.status(engine.serviceUrl()),
    language: languageSetting(engine.settings),
    pseudoLocaleOffered: pseudoLocaleOffered(),
  };
}

function chooseLanguage(engine: Engine, language: LanguageSetting): void {
  try {
    setLanguage(engine.settings, language);
  } catch (error) {
    if (error instanceof LanguageUnavailableError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { language: [error.message] } });
    throw error;
  }
}

async function setProxy(engine: Engine, change: ProxyChange): Promise<void> {
  try {
    await engine.proxy.update(change);
  } catch (error) {
    if (error instanceof ProxyAddressError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { proxy: [error.message] } });
    throw error;
  }
}

export const SETTINGS_HANDLERS: Handlers<'settings.get' | 'settings.update'> = {
  'settings.get': (engine, _params, _signal, { library }) => settingsView(engine, library),
  'settings.update': async (engine, { serviceUrl, webUrl, cacheLimitMb, catalogueRefreshMinutes, reviewBeforePublishing, startAtLogin, startAtLoginAsked, maxUploadKBps, maxDownloadKBps, proxy, language }, _signal, { library }) => {
    // A person typed it: saved only when a design-sharing service answers there (runtime/service-check.ts).
    if (serviceUrl !== undefined) await engine.setServiceUrl(serviceUrl, { check: true });
    if (webUrl !== undefined) engine.setWebUrl(webUrl);
    if (cacheLimitMb !== undefined) engine.setCacheLimit(cacheLimitMb * 1024 * 1024);
    if (catalogueRefreshMinutes !== undefined) engine.settings.update({ catalogueRefreshMinutes });
    if (reviewBeforePublishing !== undefined) engine.settings.update({ reviewBeforePublishing });
    if (startAtLogin !== undefined) await setStartAtLogin(engine, startAtLogin);
    if (startAtLoginAsked) engine.settings.update({ startAtLoginAsked: true });
    if (maxUploadKBps !== undefined || maxDownloadKBps !== undefined) {
      engine.setBandwidthLimits({ ...(maxUploadKBps !== undefined ? { maxUploadKBps } : {}), ...(maxDownloadKBps !== undefined ? { maxDownloadKBps } : {}) });
    }
    if (proxy !== undefined) await setProxy(engine, proxy);
    if (language !== undefined) chooseLanguage(engine, language);
    return settingsView(engine, library);
  },
};
