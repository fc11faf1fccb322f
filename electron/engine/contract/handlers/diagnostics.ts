import type { DiagnosticsView } from '../../../../shared';
import type { EngineServices } from '../../composition/engine-services';
import { engineLog } from '../../log/engine-log';
import type { Handlers } from '../handler-types';

function diagnosticsView({ cacheHealth }: Pick<EngineServices, 'cacheHealth'>): DiagnosticsView {
  const rebuilt = cacheHealth.rebuilt;
  return {
    logFile: engineLog.file,
    logProblem: engineLog.problem,
    notices: rebuilt ? [rebuilt.notice] : [],
  };
}

export const DIAGNOSTICS_HANDLERS: Handlers<'diagnostics.get'> = {
  'diagnostics.get': (services) => diagnosticsView(services),
};
