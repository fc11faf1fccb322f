import { isAbsolute } from 'node:path';
import { EngineError } from '../../runtime/engine-error';
import { syncNow } from '../../runtime/sync-actions';
import type { Handlers } from '../handler-types';
import { IgnoreFileError } from '../../sync/ignore/ignore-files';
import { neverSentView } from '../views/never-sent-view';
import { syncView } from '../views/sync-view';

export const SYNC_HANDLERS: Handlers<'sync.status' | 'sync.chooseFolder' | 'sync.start' | 'sync.stop' | 'sync.now' | 'sync.acceptContentPolicy' | 'sync.neverSent' | 'sync.saveIgnoreFile'> = {
  'sync.status': (engine) => syncView(engine),
  'sync.chooseFolder': async (engine, { path }) => {
    if (!isAbsolute(path)) {
      const message = 'must be a full path (e.g. /home/you/Designs)';
      throw new EngineError({ kind: 'validation', message: `The sync folder ${message}.`, fieldErrors: { path: [message] } });
    }
    await engine.chooseSyncFolder(path);
    return syncView(engine);
  },
  'sync.start': async (engine) => {
    if (!engine.syncFolder()) throw new EngineError({ kind: 'sync-folder', message: 'Choose a sync folder first.' });
    await engine.startBackground();
    return syncView(engine);
  },
  'sync.stop': async (engine) => {
    await engine.stopBackground();
    return syncView(engine);
  },
  'sync.now': async (engine) => {
    await syncNow(engine);
    return syncView(engine);
  },
  'sync.acceptContentPolicy': (engine) => {
    engine.acceptContentPolicy();
    return syncView(engine);
  },
  'sync.neverSent': (engine) => neverSentView(engine),
  'sync.saveIgnoreFile': async (engine, { text }) => {
    if (!engine.syncFolder()) throw new EngineError({ kind: 'sync-folder', message: 'Choose a sync folder first: the ignore file is kept in it.' });
    try {
      await engine.syncParts().sync.saveIgnoreFile(text);
    } catch (error) {
      if (error instanceof IgnoreFileError) throw new EngineError({ kind: 'validation', message: error.message, fieldErrors: { text: [error.message] } });
      throw error;
    }
    return neverSentView(engine);
  },
};
