import type { Handlers } from '../handler-types';
import { ownDesignView, ownDesignViews } from '../views/own-design-view';

/** The signed-in user's designs, drafts included: the own-designs service decides, these make the views. */
export const OWN_DESIGN_HANDLERS: Handlers<'own.list' | 'own.create' | 'own.update' | 'own.publish' | 'own.delete'> = {
  'own.list': async (engine, _input, _signal, { ownDesigns, library }) => ownDesignViews(engine, library, await ownDesigns.list()),
  'own.create': async (engine, fields, _signal, { ownDesigns, library }) => ownDesignView(engine, library, await ownDesigns.create(fields)),
  'own.update': async (engine, { id, ...fields }, _signal, { ownDesigns, library }) => ownDesignView(engine, library, await ownDesigns.update(id, fields)),
  'own.publish': async (engine, { id }, _signal, { ownDesigns, library }) => ownDesignView(engine, library, await ownDesigns.publish(id)),
  'own.delete': async (_engine, { id }, _signal, { ownDesigns }) => ({ id: (await ownDesigns.delete(id)).id }),
};
