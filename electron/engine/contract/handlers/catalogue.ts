import { refreshSyncFolder } from '../../runtime/sync-actions';
import type { Handlers } from '../handler-types';
import { pullView } from '../views/pull-view';

export const CATALOGUE_HANDLERS: Handlers<'catalogue.pull'> = {
  // The catalogue with the own designs and drafts, then the sync folder's side of the service (a full pass).
  'catalogue.pull': async (engine) => {
    engine.requireServiceUrl();
    const summary = await engine.catalogue.pullNow();
    await refreshSyncFolder(engine);
    return pullView(summary);
  },
};
