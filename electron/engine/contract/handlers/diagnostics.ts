import type { DiagnosticsView } from '../../../../shared';
import { engineLog } from '../../log/engine-log';
import type { Engine } from '../../runtime/engine';
import type { Handlers } from '../handler-types';

function diagnosticsView(engine: Engine): DiagnosticsView {
  const rebuilt = engine.cache.rebuilt;
  return {
    logFile: engineLog.file,
    logProblem: engineLog.problem,
    notices: rebuilt ? [rebuilt.notice] : [],
  };
}

export const DIAGNOSTICS_HANDLERS: Handlers<'diagnostics.get'> = {
  'diagnostics.get': (engine) => diagnosticsView(engine),
};
