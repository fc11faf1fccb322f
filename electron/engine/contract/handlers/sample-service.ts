import type { SampleServiceView } from '../../../../shared';
import { SAMPLE_SIGN_IN, SampleServiceError } from '../../sample-service/sample-service';
import { EngineError } from '../../runtime/engine-error';
import type { SampleService } from '../../sample-service/sample-service';
import type { Handlers } from '../handler-types';

function sampleServiceView(sample: SampleService): SampleServiceView {
  return {
    inUse: sample.inUse(),
    serviceUrl: sample.address,
    starting: sample.isStarting,
    problem: sample.problem,
    problemWords: sample.problemWords,
    signIn: { ...SAMPLE_SIGN_IN },
  };
}

export const SAMPLE_SERVICE_HANDLERS: Handlers<'service.trySample' | 'service.sample'> = {
  'service.sample': ({ sampleService }) => sampleServiceView(sampleService),
  'service.trySample': async ({ sampleService, lifecycle }) => {
    let url: string;
    try {
      url = await sampleService.start();
    } catch (error) {
      // Said in the person's language from its facts; the English for the log.
      throw new EngineError({ kind: 'internal', message: error instanceof Error ? error.message : String(error), ...(error instanceof SampleServiceError ? { words: error.words } : {}) });
    }
    try {
      // Refused while signed in to another service (a sign-in belongs to its service): then it is not kept running.
      await lifecycle.setServiceUrl(url);
    } catch (error) {
      await sampleService.stop();
      throw error;
    }
    sampleService.remember();
    return sampleServiceView(sampleService);
  },
};
