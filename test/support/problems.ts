import { isServiceError } from '../../electron/engine/api/service-error';
import type { ServiceProblem } from '../../shared';

/** The problem a request failed with; fails the test when it succeeded or threw something else. */
export async function problemOf(promise: Promise<unknown>): Promise<ServiceProblem> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return error.problem;
    throw error;
  }
  throw new Error('expected the request to fail');
}
