import type { KeptDesignView } from '../../../../shared';
import type { KeptDesignStatus } from '../../keep-offline/keep-offline';
import { iso } from './iso';

/** A design kept offline as the contract carries it. */
export function keptDesignView(status: KeptDesignStatus): KeptDesignView {
  return {
    designId: status.designId,
    name: status.name,
    keptAt: iso(status.keptAt) ?? new Date(0).toISOString(),
    state: status.state,
    filesTotal: status.filesTotal,
    filesHere: status.filesHere,
    bytesHere: status.bytesHere,
    current: status.current,
    problem: status.problem,
    problemWords: status.problemWords,
    checkedAt: iso(status.checkedAt),
  };
}
