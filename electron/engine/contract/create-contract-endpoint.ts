import { parseRequest, type ContractProblem, type Outcome, type RequestName } from '../../../shared';
import type { Engine } from '../runtime/engine';
import type { ContractEndpoint, EventMessage } from './contract-endpoint';
import { adoptDroppedFile, incomingDirOf } from './dropped-files';
import { subscribeToDesignChanges } from './design-events';
import { connectivityEvent, subscribeToEngine } from './engine-events';
import { servicesOf } from '../composition/engine-services';
import { serveFileAddress } from './file-addresses';
import { generatedThumbnailAddress } from './generated-thumbnail-files';
import { HANDLERS } from './handlers';
import type { Handler } from './handler-types';
import { problemOf } from './problem-of';
import { engineLog } from '../log/engine-log';

/**
 * The contract answered by one engine: every request checked against its schema at the boundary, handled by the
 * engine's services (composed once per engine: composition/engine-services.ts), and answered as an Outcome; events
 * fanned out to every subscriber; file addresses resolved to the file cache.
 */
export function createContractEndpoint(engine: Engine): ContractEndpoint & { close(): Promise<void> } {
  /**
   * A failure as the problem the window is shown. An internal one (a bug, a disk error) shows only its words: its
   * stack goes to the log. A damaged cache is marked to be rebuilt at the next start, and says so.
   */
  const answered = (what: string, error: unknown): ContractProblem => {
    const problem = problemOf(error);
    if (problem.kind !== 'internal') return problem;
    const damagedCache = services.cacheHealth.noteFailure(error);
    engineLog.error('contract', `${what} failed`, error);
    return damagedCache ? { kind: 'internal', message: damagedCache } : problem;
  };
  const listeners = new Set<(event: EventMessage) => void>();
  const abort = new AbortController();
  const services = servicesOf(engine);
  // A window is coming: the library warms the search index's pages of a large cache (once for the engine), and the
  // pictures of designs no longer cached are swept.
  void services.library;
  services.thumbnails.sweep().catch((error: unknown) => engineLog.warn('thumbnails', 'the pictures of designs no longer cached could not be swept', error));
  const deliver = (listener: (event: EventMessage) => void, event: EventMessage) => {
    try {
      listener(event);
    } catch (error) {
      // One subscriber's failure is its own: the others still get the event.
      engineLog.warn('contract', `a subscriber failed on the event ${event.name}`, error);
    }
  };
  const fanOut = (event: EventMessage) => {
    for (const listener of [...listeners]) deliver(listener, event);
  };
  const unsubscribe = subscribeToEngine(services, fanOut);
  const unsubscribeDesigns = subscribeToDesignChanges(services, fanOut);
  return {
    async handle(name: unknown, input: unknown, signal?: AbortSignal): Promise<Outcome<unknown>> {
      const parsed = parseRequest(name, input);
      if (!parsed.ok) return parsed;
      const handler = HANDLERS[parsed.name] as Handler<RequestName>;
      try {
        return { ok: true, value: await handler(services, parsed.input, signal ? AbortSignal.any([abort.signal, signal]) : abort.signal) };
      } catch (error) {
        return { ok: false, problem: answered(`the ${parsed.name} request`, error) };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      // A window that opens while the service is away hears it at once (it hears only changes afterwards).
      const { connectivity } = services.connection;
      const told = connectivity.isOnline() ? null : setImmediate(() => {
        if (listeners.has(listener) && !connectivity.isOnline()) deliver(listener, connectivityEvent(services.connection));
      });
      return () => {
        if (told) clearImmediate(told);
        listeners.delete(listener);
      };
    },
    file: (address, signal) => serveFileAddress(engine, address, signal),
    incomingDir: () => incomingDirOf(services.profile),
    async adoptDroppedFile(drop) {
      try {
        return { ok: true, value: await adoptDroppedFile(services.profile, drop, services.ownDesigns) };
      } catch (error) {
        return { ok: false, problem: answered('a dropped file', error) };
      }
    },
    async adoptGeneratedThumbnail(staged) {
      try {
        const row = await services.thumbnails.store(staged);
        return { ok: true, value: { thumbnailUrl: generatedThumbnailAddress(row.designId, row.madeAt) } };
      } catch (error) {
        return { ok: false, problem: answered('a generated thumbnail', error) };
      }
    },
    // The services are the engine's: they close with it, not with one of its endpoints.
    async close() {
      abort.abort();
      listeners.clear();
      unsubscribe();
      unsubscribeDesigns();
    },
  };
}
