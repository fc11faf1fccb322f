import { isAbsolute } from 'node:path';
import { EngineError } from '../../runtime/engine-error';
import type { Handlers } from '../handler-types';
import { IgnoreFileError } from '../../sync/ignore/ignore-files';
import { neverSentView } from '../views/never-sent-view';
import { syncView } from '../views/sync-view';

export const SYNC_HANDLERS: Handlers<'sync.status' | 'sync.chooseFolder' | 'sync.start' | 'sync.stop' | 'sync.now' | 'sync.acceptContentPolicy' | 'sync.neverSent' | 'sync.saveIgnoreFile'> = {
  'sync.status': (services) => syncView(services),
  'sync.chooseFolder': (services, { path }) => {
    if (!isAbsolute(path)) {
      const message = 'must be a full path (e.g. /home/you/Designs)';
      throw new EngineError({ kind: 'validation', message: `The sync folder ${message}.`, fieldErrors: { path: [message] } });
    }
    services.sync.chooseFolder(path);
    return syncView(services);
  },
  'sync.start': async (services) => {
    if (!services.sync.folder()) throw new EngineError({ kind: 'sync-folder', message: 'Choose a sync folder first.' });
    await services.lifecycle.startBackground();
    return syncView(services);
  },
  'sync.stop': async (services) => {
    await services.lifecycle.stopBackground();
    return syncView(services);
  },
  'sync.now': async (services) => {
    await services.sync.syncNow();
    return syncView(services);
  },
  'sync.acceptContentPolicy': (services) => {
    services.sync.acceptContentPolicy();
    return syncView(services);
  },
  'sync.neverSent': (services) => neverSentView(services),
  'sync.saveIgnoreFile': async (services, { text }) => {
    if (!services.sync.folder()) throw EngineError.of('sync-folder', 'engine.refusal.ignore.noSyncFolder');
    try {
      await services.sync.syncParts().sync.saveIgnoreFile(text);
    } catch (error) {
      if (error instanceof IgnoreFileError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { text: [error.message] }, words: error.words });
      throw error;
    }
    return neverSentView(services);
  },
};
