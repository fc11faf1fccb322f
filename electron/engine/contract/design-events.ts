import { engineLog } from '../log/engine-log';
import type { EventMessage } from './contract-endpoint';
import type { EngineServices } from '../composition/engine-services';
import { ownDesignViews } from './views/own-design-view';

/**
 * The services' change events as the contract's: 'designs.changed' with the ids (the library and a design's page read
 * again only what changed), 'own.changed' with the views of the own designs that changed (My designs applies them,
 * without reading the whole list again). Returns the function that stops following them.
 */
export function subscribeToDesignChanges(services: EngineServices, send: (event: EventMessage) => void): () => void {
  const onDesigns = (change: { ids: number[]; removed: number[]; all: boolean }) => send({ type: 'event', name: 'designs.changed', payload: change });
  const onOwn = ({ ids, removed }: { ids: number[]; removed: number[] }) => {
    let states;
    try {
      states = services.ownDesigns.states(ids);
    } catch (error) {
      engineLog.warn('contract', 'the own designs that changed could not be read', error);
      return;
    }
    // An id the cache no longer has is one removed (deleted between the change and now).
    const gone = ids.filter((id) => !states.some((state) => state.summary.id === id));
    void ownDesignViews(services, states).then(
      (designs) => send({ type: 'event', name: 'own.changed', payload: { designs, removed: [...new Set([...removed, ...gone])] } }),
      (error: unknown) => engineLog.warn('contract', 'the own designs that changed could not be shown', error),
    );
  };
  // A picture made from a design's model changes its card wherever it is shown.
  const onThumbnails = ({ ids, own }: { ids: number[]; own: number[] }) => {
    onDesigns({ ids, removed: [], all: false });
    if (own.length > 0) onOwn({ ids: own, removed: [] });
  };
  services.library.on('changed', onDesigns);
  services.ownDesigns.on('changed', onOwn);
  services.thumbnails.on('changed', onThumbnails);
  return () => {
    services.library.off('changed', onDesigns);
    services.ownDesigns.off('changed', onOwn);
    services.thumbnails.off('changed', onThumbnails);
  };
}
