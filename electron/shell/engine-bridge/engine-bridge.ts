import type { ContractProblem, Outcome } from '../../../shared';
import { errorWords } from '../../../shared/i18n/worded-error';
import type { TokenStore } from '../../engine/authorization/token-store';
import type { EventMessage, ServedFile } from '../../engine/contract/contract-endpoint';
import type { EngineSettings } from '../../engine/settings/settings-store';
import type { BridgePort, EngineOpenOptions, EngineToHost, HostToEngine, SecretName } from './messages';

/** What the host does for the engine: only it can use safeStorage, electron-store and the system browser. */
export interface EngineHostServices {
  tokens: TokenStore;
  /** The manual proxy's password, kept like the token (safeStorage); absent: the engine keeps none. */
  proxyPassword?: TokenStore;
  saveSettings(settings: EngineSettings): void;
  openExternal(url: string): void;
  log(line: string): void;
  /** Registers or removes the app's login item (resolves with the system's state then); absent where the host cannot. */
  setStartAtLogin?(on: boolean): Promise<boolean>;
}

const GONE: ContractProblem = { kind: 'internal', message: 'The design-sync engine stopped: it is being restarted. Try again in a moment.' };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The main process's side of the bridge to the engine's utility process: the window's requests forwarded and answered
 * as outcomes (never a hang: if the engine process ends, every pending request ends with a problem), the engine's
 * events fanned out, file addresses and dropped files handed over, and the token and settings operations the engine
 * asks of the host carried out.
 */
export class EngineBridge {
  private nextId = 1;
  private readonly pending = new Map<number, (message: EngineToHost | null) => void>();
  private readonly eventListeners = new Set<(event: EventMessage) => void>();
  private readonly off: () => void;
  private ready: Promise<void> | null = null;
  private readyWaiter: { resolve: () => void; reject: (error: Error) => void } | null = null;
  private closedWaiter: (() => void) | null = null;
  private gone = false;

  constructor(private readonly port: BridgePort<EngineToHost, HostToEngine>, private readonly services: EngineHostServices) {
    this.off = port.onMessage((message) => this.receive(message));
  }

  /** Opens the engine in the other process; resolves once it answers requests, rejects with its reason otherwise. */
  open(options: EngineOpenOptions): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      this.readyWaiter = { resolve, reject };
      this.port.post({ type: 'open', options });
    });
    return this.ready;
  }

  request(name: string, input: unknown): Promise<Outcome<unknown>> {
    return this.ask((id) => ({ type: 'request', id, name, input }), (answer) =>
      answer?.type === 'response' ? answer.outcome : { ok: false, problem: GONE });
  }

  file(address: string): Promise<ServedFile | null> {
    return this.ask((id) => ({ type: 'file', id, address }), (answer) => (answer?.type === 'file' ? answer.file : null));
  }

  drop(drop: { designId: number; fileName: string; stagedPath: string }): Promise<Outcome<unknown>> {
    return this.ask((id) => ({ type: 'drop', id, ...drop }), (answer) =>
      answer?.type === 'dropped' ? answer.outcome : { ok: false, problem: GONE });
  }

  /** The system's proxy for the service as the host resolved it again (null: direct): used from the next request on. */
  setSystemProxy(proxy: string | null): void {
    this.port.post({ type: 'system-proxy', proxy });
  }

  thumbnail(staged: { designId: number; documentId: number; stagedPath: string }): Promise<Outcome<unknown>> {
    return this.ask((id) => ({ type: 'thumbnail', id, ...staged }), (answer) =>
      answer?.type === 'thumbnail-kept' ? answer.outcome : { ok: false, problem: GONE });
  }

  onEvent(listener: (event: EventMessage) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Asks the engine to close (uploads under way get `drainMs` to finish); resolves when it has, or after `timeoutMs`. */
  async close(drainMs: number, timeoutMs: number): Promise<'closed' | 'timed-out'> {
    if (this.gone) return 'closed';
    const closed = new Promise<'closed'>((resolve) => (this.closedWaiter = () => resolve('closed')));
    this.port.post({ type: 'close', drainMs });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed-out'>((resolve) => (timer = setTimeout(() => resolve('timed-out'), timeoutMs)));
    const result = await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    this.dispose();
    return result;
  }

  /** The engine process ended (crashed or closed): everything pending ends with a problem, nothing hangs. */
  engineExited(): void {
    this.readyWaiter?.reject(new Error('The engine process ended before it was ready.'));
    this.readyWaiter = null;
    this.closedWaiter?.();
    this.dispose();
  }

  private dispose(): void {
    this.gone = true;
    this.off();
    for (const settle of this.pending.values()) settle(null);
    this.pending.clear();
  }

  private ask<T>(message: (id: number) => HostToEngine, read: (answer: EngineToHost | null) => T): Promise<T> {
    if (this.gone) return Promise.resolve(read(null));
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, (answer) => resolve(read(answer)));
      this.port.post(message(id));
    });
  }

  private answer(id: number, message: EngineToHost): void {
    const settle = this.pending.get(id);
    this.pending.delete(id);
    settle?.(message);
  }

  private receive(message: EngineToHost): void {
    switch (message.type) {
      case 'ready':
        this.readyWaiter?.resolve();
        this.readyWaiter = null;
        return;
      case 'open-failed':
        this.readyWaiter?.reject(new Error(message.message));
        this.readyWaiter = null;
        return;
      case 'response':
      case 'file':
      case 'dropped':
      case 'thumbnail-kept':
        this.answer(message.id, message);
        return;
      case 'event':
        for (const listener of [...this.eventListeners]) listener(message.event);
        return;
      case 'token':
        void this.tokenOperation(message.id, message.operation, message.token, message.secret);
        return;
      case 'settings':
        this.services.saveSettings(message.settings);
        return;
      case 'open-external':
        this.services.openExternal(message.url);
        return;
      case 'start-at-login':
        void this.startAtLogin(message.id, message.on);
        return;
      case 'log':
        this.services.log(message.line);
        return;
      case 'closed':
        this.closedWaiter?.();
        return;
    }
  }

  private async startAtLogin(id: number, on: boolean): Promise<void> {
    try {
      if (!this.services.setStartAtLogin) throw new Error('This app cannot start itself at login.');
      this.port.post({ type: 'start-at-login-answer', id, ok: true, on: await this.services.setStartAtLogin(on) });
    } catch (error) {
      this.port.post({ type: 'start-at-login-answer', id, ok: false, message: messageOf(error) });
    }
  }

  private async tokenOperation(id: number, operation: 'read' | 'write' | 'clear', token: string | undefined, secret?: SecretName): Promise<void> {
    const about = secret ? { secret } : {};
    try {
      const store = secret === 'proxy-password' ? this.services.proxyPassword : this.services.tokens;
      if (!store) throw new Error("This app keeps no proxy password.");
      let value: string | null = null;
      if (operation === 'read') value = await store.read();
      else if (operation === 'write') await store.write(token ?? '');
      else await store.clear();
      this.port.post({ type: 'token-answer', id, ok: true, token: value, ...about });
    } catch (error) {
      // Its facts cross with it (a stored sign-in that cannot be used), for the window to word.
      const words = errorWords(error);
      this.port.post({ type: 'token-answer', id, ok: false, message: messageOf(error), ...(words ? { words } : {}), ...about });
    }
  }
}
