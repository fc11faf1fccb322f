import type { Handlers } from '../handler-types';
import { ownDesignView, ownDesignViews } from '../views/own-design-view';

/** The signed-in user's designs, drafts included: the own-designs service decides, these make the views. */
export const OWN_DESIGN_HANDLERS: Handlers<'own.list' | 'own.create' | 'own.update' | 'own.publish' | 'own.delete'> = {
  'own.list': async (services) => ownDesignViews(services, await services.ownDesigns.list()),
  'own.create': async (services, fields) => ownDesignView(services, await services.ownDesigns.create(fields)),
  'own.update': async (services, { id, ...fields }) => ownDesignView(services, await services.ownDesigns.update(id, fields)),
  'own.publish': async (services, { id }) => ownDesignView(services, await services.ownDesigns.publish(id)),
  'own.delete': async ({ ownDesigns }, { id }) => ({ id: (await ownDesigns.delete(id)).id }),
};
