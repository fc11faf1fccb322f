import { parseRequest, type Outcome, type UpdatesView } from '../../../shared';

const UPDATE_REQUESTS = new Set<string>(['updates.get', 'updates.check', 'updates.restart']);

/** What the update requests reach in the main process. */
export interface UpdatesAnswerer {
  view(): UpdatesView;
  checkNow(): void;
  restartNow(): void;
}

/** The contract's update requests, answered by the desktop app's main process itself (the engine knows nothing of them). */
export function isUpdatesRequest(name: string): boolean {
  return UPDATE_REQUESTS.has(name);
}

/**
 * Answers an update request from the window, its input checked against the contract as the engine checks the others:
 * the state, after starting a check ('updates.check') or asking for the restart ('updates.restart', which waits for
 * files being sent). What follows arrives as 'updates.changed' events.
 */
export function answerUpdatesRequest(name: string, input: unknown, updates: UpdatesAnswerer): Outcome<UpdatesView> {
  const parsed = parseRequest(name, input);
  if (!parsed.ok) return parsed;
  if (!isUpdatesRequest(parsed.name)) return { ok: false, problem: { kind: 'unknown-request', message: `${parsed.name} is not an update request.` } };
  if (parsed.name === 'updates.check') updates.checkNow();
  if (parsed.name === 'updates.restart') updates.restartNow();
  return { ok: true, value: updates.view() };
}
