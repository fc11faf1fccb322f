import type { SampleServiceView } from '../../../../shared';
import { SAMPLE_SIGN_IN } from '../../sample-service/sample-service';
import { EngineError } from '../../runtime/engine-error';
import type { Engine } from '../../runtime/engine';
import type { Handlers } from '../handler-types';

function sampleServiceView(engine: Engine): SampleServiceView {
  const sample = engine.sampleService;
  return {
    inUse: sample.inUse(),
    serviceUrl: sample.address,
    starting: sample.isStarting,
    problem: sample.problem,
    signIn: { ...SAMPLE_SIGN_IN },
  };
}

export const SAMPLE_SERVICE_HANDLERS: Handlers<'service.trySample' | 'service.sample'> = {
  'service.sample': (engine) => sampleServiceView(engine),
  'service.trySample': async (engine) => {
    let url: string;
    try {
      url = await engine.sampleService.start();
    } catch (error) {
      throw new EngineError({ kind: 'internal', message: error instanceof Error ? error.message : String(error) });
    }
    try {
      // Refused while signed in to another service (a sign-in belongs to its service): then it is not kept running.
      await engine.setServiceUrl(url);
    } catch (error) {
      await engine.sampleService.stop();
      throw error;
    }
    engine.sampleService.remember();
    return sampleServiceView(engine);
  },
};
