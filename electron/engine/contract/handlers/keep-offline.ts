import type { KeptOfflineView } from '../../../../shared';
import type { KeepOffline } from '../../keep-offline/keep-offline';
import type { Handlers } from '../handler-types';
import { keptDesignView } from '../views/kept-design-view';

const keptView = (keepOffline: KeepOffline): KeptOfflineView => ({ designs: keepOffline.list().map(keptDesignView), bytes: keepOffline.keptBytes() });

export const KEEP_OFFLINE_HANDLERS: Handlers<'offline.keep' | 'offline.release' | 'offline.list'> = {
  /** Recorded at once; the downloads go on behind and are told as 'offline.progress'. */
  'offline.keep': async ({ library, keepOffline }, { designs }, signal) => {
    await library.keepOffline(designs, signal);
    return keptView(keepOffline);
  },
  'offline.release': ({ keepOffline }, { designs }) => {
    keepOffline.release(designs);
    return keptView(keepOffline);
  },
  'offline.list': ({ keepOffline }) => keptView(keepOffline),
};
