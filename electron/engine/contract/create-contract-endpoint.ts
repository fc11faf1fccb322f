import { parseRequest, type Outcome, type RequestName } from '../../../shared';
import type { Engine } from '../runtime/engine';
import type { ContractEndpoint, EventMessage } from './contract-endpoint';
import { adoptDroppedFile, incomingDirOf } from './dropped-files';
import { subscribeToEngine } from './engine-events';
import { serveFileAddress } from './file-addresses';
import { HANDLERS } from './handlers';
import type { Handler } from './handler-types';
import { problemOf } from './problem-of';

/**
 * The contract answered by one engine: every request checked against its schema at the boundary, handled, and
 * answered as an Outcome; events fanned out to every subscriber; file addresses resolved to the file cache.
 */
export function createContractEndpoint(engine: Engine): ContractEndpoint & { close(): void } {
  const listeners = new Set<(event: EventMessage) => void>();
  const abort = new AbortController();
  const unsubscribe = subscribeToEngine(engine, (event) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // One subscriber's failure is its own.
      }
    }
  });
  return {
    async handle(name: unknown, input: unknown): Promise<Outcome<unknown>> {
      const parsed = parseRequest(name, input);
      if (!parsed.ok) return parsed;
      const handler = HANDLERS[parsed.name] as Handler<RequestName>;
      try {
        return { ok: true, value: await handler(engine, parsed.input, abort.signal) };
      } catch (error) {
        return { ok: false, problem: problemOf(error) };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    file: (address, signal) => serveFileAddress(engine, address, signal),
    incomingDir: () => incomingDirOf(engine),
    async adoptDroppedFile(drop) {
      try {
        return { ok: true, value: await adoptDroppedFile(engine, drop) };
      } catch (error) {
        return { ok: false, problem: problemOf(error) };
      }
    },
    close() {
      abort.abort();
      listeners.clear();
      unsubscribe();
    },
  };
}
