import { join } from 'node:path';
import { ENGINE_NODE_FLAGS } from '../electron/engine/runtime/engine-node-flags';

/** Runs a TypeScript program from a bundle of its source, as `design-sync` runs (electron/launcher/run-source.mjs). */
const RUN_SOURCE = join(import.meta.dirname, '..', 'electron', 'launcher', 'run-source.mjs');

/**
 * The arguments of a Node process the benchmarks run engine code in (a scenario, a search probe, a watcher probe): the
 * engine's own V8 flags, as `design-sync` starts with them, gc() for the memory figures, and the program run as
 * `design-sync` runs its own (from a bundle of its source).
 */
export function engineProcessArgs(script: string, ...args: string[]): string[] {
  return [...ENGINE_NODE_FLAGS, '--expose-gc', RUN_SOURCE, script, ...args];
}
