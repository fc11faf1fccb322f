import type { Handlers } from '../handler-types';
import { pullView } from '../views/pull-view';

export const CATALOGUE_HANDLERS: Handlers<'catalogue.pull'> = {
  'catalogue.pull': async (engine) => {
    engine.requireServiceUrl();
    return pullView(await engine.catalogue.pullNow());
  },
};
