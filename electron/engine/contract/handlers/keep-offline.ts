import type { KeptOfflineView } from '../../../../shared';
import type { Engine } from '../../runtime/engine';
import type { Handlers } from '../handler-types';
import { keptDesignView } from '../views/kept-design-view';

const keptView = (engine: Engine): KeptOfflineView => ({ designs: engine.keepOffline.list().map(keptDesignView), bytes: engine.keepOffline.keptBytes() });

export const KEEP_OFFLINE_HANDLERS: Handlers<'offline.keep' | 'offline.release' | 'offline.list'> = {
  /** Recorded at once; the downloads go on behind and are told as 'offline.progress'. */
  'offline.keep': async (engine, { designs }, signal, { library }) => {
    await library.keepOffline(designs, signal);
    return keptView(engine);
  },
  'offline.release': (engine, { designs }) => {
    engine.keepOffline.release(designs);
    return keptView(engine);
  },
  'offline.list': (engine) => keptView(engine),
};
