import type { Library } from '../../library/library';
import type { Engine } from '../../runtime/engine';
import { webAddressFacts } from '../../runtime/service-address';
import type { SettingsView } from '../../../../shared';
import type { Handlers } from '../handler-types';
import { iso } from '../views/iso';

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
  };
}

export const SETTINGS_HANDLERS: Handlers<'settings.get' | 'settings.update'> = {
  'settings.get': (engine, _params, _signal, { library }) => settingsView(engine, library),
  'settings.update': async (engine, { serviceUrl, webUrl, cacheLimitMb, catalogueRefreshMinutes, reviewBeforePublishing }, _signal, { library }) => {
    // A person typed it: saved only when a design-sharing service answers there (runtime/service-check.ts).
    if (serviceUrl !== undefined) await engine.setServiceUrl(serviceUrl, { check: true });
    if (webUrl !== undefined) engine.setWebUrl(webUrl);
    if (cacheLimitMb !== undefined) engine.setCacheLimit(cacheLimitMb * 1024 * 1024);
    if (catalogueRefreshMinutes !== undefined) engine.settings.update({ catalogueRefreshMinutes });
    if (reviewBeforePublishing !== undefined) engine.settings.update({ reviewBeforePublishing });
    return settingsView(engine, library);
  },
};
