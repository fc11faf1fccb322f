import type { Handlers } from '../handler-types';
import { pullView } from '../views/pull-view';

export const CATALOGUE_HANDLERS: Handlers<'catalogue.pull'> = {
  // The catalogue with the own designs and drafts, then the sync folder's side of the service (a full pass).
  'catalogue.pull': async ({ connection, catalogue, sync }) => {
    connection.requireServiceUrl();
    const summary = await catalogue.pullNow();
    await sync.refreshAfterPull();
    return pullView(summary);
  },
};
