import { describeFieldErrors, validateDesignInput, type FieldErrors } from '../../../shared';
import type { DesignFields } from '../api/service-client';
import { isServiceError } from '../api/service-error';
import { SIGN_IN_AGAIN } from '../authorization/session';
import { getCachedDesign, type DesignSummary } from '../cache/design-reads';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import { EngineError } from '../runtime/engine-error';
import { signedInUserOf, type OwnDesignsDeps } from './own-designs-deps';

/** The rules every write of an own design follows, whoever asks (the window, the CLI). */

type RuleDeps = Pick<OwnDesignsDeps, 'session' | 'confirmUser' | 'cache' | 'interactiveClient'>;

/** Signed in, and who that is when the service can say (a token read from storage names nobody): ownership is by id. */
export async function requireSignedIn(deps: Pick<OwnDesignsDeps, 'session' | 'confirmUser'>): Promise<void> {
  const { session } = deps;
  if (!session.canWrite()) {
    const { state } = session;
    if (state.status !== 'needs-sign-in') throw EngineError.of('not-signed-in', 'engine.refusal.ownDesign.signIn');
    // A sign-in the service refused: the account's words for it (the same the account menu says).
    throw state.reason === SIGN_IN_AGAIN ? EngineError.of('not-signed-in', 'shell.account.signInRefused') : new EngineError({ kind: 'not-signed-in', message: state.reason });
  }
  await deps.confirmUser();
}

/** The service's own field names in the contract's words. */
function contractFieldErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, messages]) => [field === 'primary_image_id' ? 'primaryImageId' : field, messages]));
}

/** The shared validation, so that the messages are the service's own; refused before anything is sent. */
export function checkedFields(input: Record<string, unknown>, mode: 'create' | 'update'): DesignFields {
  const present = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const result = validateDesignInput(present, mode);
  if (!result.ok) {
    // The field errors are the service's own words (shared/validation), said as they are inside the sentence.
    const words: EngineWords = { id: 'engine.refusal.ownDesign.notSaved', values: { problems: describeFieldErrors(result.errors) } };
    throw new EngineError({ kind: 'validation', message: englishOf(words), fieldErrors: contractFieldErrors(result.errors), words });
  }
  return result.value as DesignFields;
}

/** A write the service refused for a field (a primary image not of this design…), named as the contract names it. */
export async function sent<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const problem = isServiceError(error) ? error.problem : null;
    if (problem?.kind === 'validation') throw new EngineError({ ...problem, fieldErrors: contractFieldErrors(problem.fieldErrors) });
    throw error;
  }
}

/** Whether a design is the signed-in user's: its owner when the user is known, else what an own pull marked. */
function isMine(deps: Pick<OwnDesignsDeps, 'session'>, summary: DesignSummary): boolean {
  const me = signedInUserOf(deps.session);
  return me ? summary.userId === me.id : summary.own;
}

/** Stores a design as the service answered it, as one of the user's own (through the designs store, which tells it). */
export function storeOwn(deps: Pick<OwnDesignsDeps, 'session' | 'cache'>, design: unknown): void {
  const me = signedInUserOf(deps.session);
  deps.cache.designs.storeDesign(design, me ? { ownScreenName: me.screen_name } : {});
}

/** A design of the signed-in user's (read from the service when the cache lacks it); refused when it is someone else's. */
export async function ownDesign(deps: RuleDeps, id: number): Promise<DesignSummary> {
  let cached = getCachedDesign(deps.cache.reader, id);
  if (!cached) {
    deps.cache.designs.storeDesign(await deps.interactiveClient().getDesign(id));
    cached = getCachedDesign(deps.cache.reader, id);
    if (!cached) throw EngineError.of('not-found', 'engine.refusal.ownDesign.noSuchDesign', { id: String(id) });
  }
  if (!isMine(deps, cached.summary)) throw EngineError.of('conflict', 'engine.refusal.ownDesign.notYours', { name: cached.summary.name });
  return cached.summary;
}
