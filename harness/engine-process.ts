import { ENGINE_NODE_FLAGS } from '../electron/engine/runtime/engine-node-flags';

/**
 * The arguments of a Node process the benchmarks run engine code in (a scenario, a search probe, a watcher probe): the
 * engine's own V8 flags, as `design-sync` starts with them, and gc() for the memory figures.
 */
export function engineProcessArgs(script: string, ...args: string[]): string[] {
  return [...ENGINE_NODE_FLAGS, '--expose-gc', '--import', 'tsx', script, ...args];
}
