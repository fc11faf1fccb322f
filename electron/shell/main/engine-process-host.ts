import { utilityProcess, type UtilityProcess } from 'electron';
import { EngineBridge, type EngineHostServices } from '../engine-bridge/engine-bridge';
import type { BridgePort, EngineOpenOptions, EngineToHost, HostToEngine } from '../engine-bridge/messages';
import type { EventMessage, ServedFile } from '../../engine/contract/contract-endpoint';
import type { Outcome } from '../../../shared';
import { RestartPolicy } from './restart-policy';

function portOf(child: UtilityProcess): BridgePort<EngineToHost, HostToEngine> {
  return {
    post: (message) => child.postMessage(message),
    onMessage(listener) {
      const onMessage = (message: EngineToHost) => listener(message);
      child.on('message', onMessage);
      return () => child.off('message', onMessage);
    },
  };
}

/**
 * The engine in its utility process, as the main process sees it: started, restarted (a few times, with a growing
 * delay) when it ends unexpectedly, closed cleanly on quit. Requests made while it restarts end with a problem.
 */
/** Why the engine process is not running, for the shell to say in the person's language: it kept stopping, or it could not start (its own words). */
export type EngineGaveUp = { kind: 'keeps-stopping' } | { kind: 'start-failed'; message: string };

/** What a request gets while the engine process is not there yet (or again): the window words it. */
const ENGINE_STARTING = { kind: 'internal', message: 'The design-sync engine is starting: try again in a moment.', words: { id: 'shell.engine.starting' } } as const;

export class EngineProcessHost {
  private child: UtilityProcess | null = null;
  private bridge: EngineBridge | null = null;
  private closing = false;
  private readonly restarts = new RestartPolicy();
  private readonly eventListeners = new Set<(event: EventMessage) => void>();

  constructor(
    private readonly entry: string,
    private readonly openOptions: () => EngineOpenOptions,
    private readonly services: EngineHostServices,
    private readonly onGaveUp: (problem: EngineGaveUp) => void,
    /** The checkout, for an unpackaged app: the engine finds better-sqlite3's Electron build under it. */
    private readonly cwd?: string,
  ) {}

  async start(): Promise<void> {
    const child = utilityProcess.fork(this.entry, [], { serviceName: 'design-sync engine', stdio: 'inherit', ...(this.cwd ? { cwd: this.cwd } : {}) });
    const bridge = new EngineBridge(portOf(child), this.services);
    this.child = child;
    this.bridge = bridge;
    bridge.onEvent((event) => {
      for (const listener of this.eventListeners) listener(event);
    });
    child.once('exit', (code) => {
      bridge.engineExited();
      if (this.child === child) this.child = null;
      if (this.closing) return;
      this.services.log(`engine: the engine process ended (code ${code})`);
      const delay = this.restarts.next();
      if (delay === null) {
        this.onGaveUp({ kind: 'keeps-stopping' });
        return;
      }
      setTimeout(() => void this.start().catch((error: unknown) => this.onGaveUp({ kind: 'start-failed', message: error instanceof Error ? error.message : String(error) })), delay);
    });
    await bridge.open(this.openOptions());
  }

  request(name: string, input: unknown): Promise<Outcome<unknown>> {
    return this.bridge ? this.bridge.request(name, input) : Promise.resolve({ ok: false, problem: ENGINE_STARTING });
  }

  file(address: string): Promise<ServedFile | null> {
    return this.bridge ? this.bridge.file(address) : Promise.resolve(null);
  }

  drop(drop: { designId: number; fileName: string; stagedPath: string }): Promise<Outcome<unknown>> {
    return this.bridge ? this.bridge.drop(drop) : Promise.resolve({ ok: false, problem: ENGINE_STARTING });
  }

  /** The system's proxy for the service, resolved again (null: direct). */
  setSystemProxy(proxy: string | null): void {
    this.bridge?.setSystemProxy(proxy);
  }

  thumbnail(staged: { designId: number; documentId: number; stagedPath: string }): Promise<Outcome<unknown>> {
    return this.bridge ? this.bridge.thumbnail(staged) : Promise.resolve({ ok: false, problem: ENGINE_STARTING });
  }

  onEvent(listener: (event: EventMessage) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Lets uploads under way finish (`drainMs`), then stops the engine; kills it if it does not stop in time. */
  async close(drainMs: number, timeoutMs: number): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!this.bridge || !child) return;
    const result = await this.bridge.close(drainMs, timeoutMs);
    if (result === 'timed-out') {
      this.services.log('engine: it did not stop in time and was ended; anything queued is sent at the next start');
      child.kill();
    }
  }
}
