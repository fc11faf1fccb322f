import { countCachedDesigns } from '../../cache/design-reads';
import type { Engine } from '../../runtime/engine';
import type { SettingsView } from '../../../../shared';
import type { Handlers } from '../handler-types';
import { iso } from '../views/iso';

function settingsView(engine: Engine): SettingsView {
  return {
    serviceUrl: engine.serviceUrl(),
    cacheLimitBytes: engine.cache.files.maxBytes,
    cacheBytes: engine.cache.files.totalBytes(),
    cacheDesigns: countCachedDesigns(engine.cache.reader),
    catalogueCheckedAt: iso(engine.catalogue.lastPullAt()),
    catalogueRefreshMinutes: engine.catalogueRefreshMinutes(),
  };
}

export const SETTINGS_HANDLERS: Handlers<'settings.get' | 'settings.update'> = {
  'settings.get': (engine) => settingsView(engine),
  'settings.update': async (engine, { serviceUrl, cacheLimitMb, catalogueRefreshMinutes }) => {
    if (serviceUrl !== undefined) await engine.setServiceUrl(serviceUrl);
    if (cacheLimitMb !== undefined) engine.setCacheLimit(cacheLimitMb * 1024 * 1024);
    if (catalogueRefreshMinutes !== undefined) engine.settings.update({ catalogueRefreshMinutes });
    return settingsView(engine);
  },
};

