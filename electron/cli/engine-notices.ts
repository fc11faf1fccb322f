import { servicesOf } from '../engine/composition/engine-services';
import type { Engine } from '../engine/runtime/engine';
import { damageReason } from '../engine/sqlite/damaged-database';
import { ENGLISH_INTL, type Words } from '../../shared/i18n/create-intl';
import type { CliContext } from './cli-context';

/**
 * What the engine has to say to the person running a command, besides the command's own output, in the run's words:
 * said once, on standard error, when the command opens the engine (the offline cache was damaged and rebuilt). And the
 * words for a damaged cache met while the command used it (the next start rebuilds it).
 */
export class EngineNotices {
  private opened: Engine | null = null;

  constructor(readonly context: CliContext, private readonly words: Words = ENGLISH_INTL) {
    const open = context.engine.bind(context);
    context.engine = async (tuning) => {
      const engine = await open(tuning);
      if (this.opened !== engine) {
        this.opened = engine;
        if (servicesOf(engine).cacheHealth.rebuilt) context.io.err(this.words.formatMessage({ id: 'cli.notices.cacheRebuilt' }));
      }
      return engine;
    };
  }

  /** The words for a failure that came from a damaged cache (marked to be rebuilt at the next start), or null. */
  damagedCache(error: unknown): string | null {
    if (!this.opened || servicesOf(this.opened).cacheHealth.noteFailure(error) === null) return null;
    return this.words.formatMessage({ id: 'cli.notices.cacheDamaged' }, { reason: damageReason(error) });
  }
}
