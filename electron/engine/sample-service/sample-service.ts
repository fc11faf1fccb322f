import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import { engineLog } from '../log/engine-log';
import type { SettingsStore } from '../settings/settings-store';
import { isPortFree } from './port-check';
import { currentServiceRuntime, serviceCommand, type ServiceRuntime } from './service-command';

/** The port the sample service takes when it is free (the one `npm run demo` uses); any free port otherwise. */
export const SAMPLE_SERVICE_PORT = 4010;
/** How the sample designs' owner signs in on it (service/seed/demo-catalogue.ts). */
export const SAMPLE_SIGN_IN = { screenName: 'demo', password: 'demo' } as const;
/** The first start seeds 60-odd designs with their images and models: some seconds, more on a slow machine. */
const DEFAULT_START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 5_000;

/** Why the sample service could not start, in words a person can act on: its facts (`words`), its message their English. */
export class SampleServiceError extends Error {
  /** `portTaken`: another program listens on the port it was to take. */
  constructor(readonly words: EngineWords, readonly portTaken = false) {
    super(englishOf(words));
    this.name = 'SampleServiceError';
  }
}

/** A problem of the sample service: its English and its facts. */
interface SampleProblem {
  text: string;
  words: EngineWords | null;
}

const problemOf = (words: EngineWords): SampleProblem => ({ text: englishOf(words), words });

export interface SampleServiceOptions {
  profileDir: string;
  settings: SettingsStore;
  /** Where the service's program is and what runs it (default: this process's). */
  runtime?: ServiceRuntime | null;
  preferredPort?: number;
  startTimeoutMs?: number;
}

const LOOPBACK_ADDRESS = /^http:\/\/127\.0\.0\.1:(\d+)\/?$/;

/**
 * The bundled local service with the demo's sample designs, run by design-sync itself for a profile that chose to try
 * it: a child process keeping its data in `<profile>/sample-service`, on port 4010 when free. The profile remembers it
 * (settings `sampleService`, `serviceUrl` its address); the engine starts it again on the same address whenever its
 * background work starts, because a sign-in belongs to the address. Stopped when the engine closes.
 */
export class SampleService extends EventEmitter<{ change: [] }> {
  private child: ChildProcess | null = null;
  private url: string | null = null;
  /** Another process of this profile runs it (a `design-sync` command beside the window): used, never stopped here. */
  private adopted = false;
  private starting: Promise<string> | null = null;
  private lastProblem: SampleProblem | null = null;
  /** The address the profile knows the sample service by (its serviceUrl while it uses it). */
  private knownAddress: string | null;
  private readonly runtime: ServiceRuntime | null;

  constructor(private readonly options: SampleServiceOptions) {
    super();
    this.runtime = options.runtime === undefined ? currentServiceRuntime() : options.runtime;
    this.knownAddress = this.inUse() ? options.settings.read().serviceUrl ?? null : null;
  }

  /** The running service's address, or null. */
  get address(): string | null {
    return this.url;
  }

  /** The running service's process id (tests check it is gone after close), or null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get isStarting(): boolean {
    return this.starting !== null;
  }

  /** Why it could not start or stopped, in English, or null. */
  get problem(): string | null {
    return this.lastProblem?.text ?? null;
  }

  /** Its facts, which the front ends word in the person's language, or null. */
  get problemWords(): EngineWords | null {
    return this.lastProblem?.words ?? null;
  }

  /** Whether the profile uses the sample service: remembered, with its loopback address as the service. */
  inUse(): boolean {
    const settings = this.options.settings.read();
    return settings.sampleService === true && LOOPBACK_ADDRESS.test(settings.serviceUrl ?? '');
  }

  /** Marks the profile as using it (the caller made its address the profile's service). */
  remember(): void {
    this.options.settings.update({ sampleService: true });
    this.knownAddress = this.options.settings.read().serviceUrl ?? null;
  }

  /**
   * The profile's service was chosen (or its web address changed): when it is no longer the sample service's address,
   * the sample service is stopped and forgotten, so that it is never started again on an address now another's.
   */
  async serviceChosen(url: string | null): Promise<void> {
    const known = this.url ?? this.knownAddress;
    if (known !== null && url === known) return;
    try {
      if (this.options.settings.read().sampleService) this.options.settings.update({ sampleService: false });
      this.knownAddress = null;
      await this.stop();
    } catch (error) {
      engineLog.warn('sample-service', 'the sample service could not be let go', error);
    }
  }

  /**
   * Starts it: on the port the profile remembers when it uses it already (a port taken by another program is said,
   * never worked around: the sign-in belongs to the address), else on 4010 when free, else any free port. Resolves
   * with its address.
   */
  async start(): Promise<string> {
    if (this.url) return this.url;
    if (this.starting) return this.starting;
    const remembered = this.inUse() ? Number(LOOPBACK_ADDRESS.exec(this.options.settings.read().serviceUrl ?? '')![1]) : null;
    if (remembered !== null) {
      if (await isPortFree(remembered)) return this.launch(remembered);
      const running = this.runningElsewhere(remembered);
      if (running) {
        this.url = running;
        this.adopted = true;
        this.lastProblem = null;
        engineLog.info('sample-service', `the sample service at ${running} is run by another process of this profile: used as it is`);
        this.emit('change');
        return running;
      }
      this.lastProblem = problemOf(takenWords(remembered));
      this.emit('change');
      throw new SampleServiceError(takenWords(remembered));
    }
    const preferred = this.options.preferredPort ?? SAMPLE_SERVICE_PORT;
    if (preferred === 0 || !(await isPortFree(preferred))) return this.launch(0);
    // Free a moment ago, but another program may take it first: then any free port, as if it had been taken.
    return this.launch(preferred).catch((error: unknown) => {
      if (error instanceof SampleServiceError && error.portTaken) return this.launch(0);
      throw error;
    });
  }

  /** Starts it again when the profile uses it and it does not run (the engine's background work starts). Never throws. */
  async resume(): Promise<void> {
    if (!this.inUse() || this.url) return;
    try {
      await this.start();
    } catch (error) {
      engineLog.warn('sample-service', 'the sample service could not start again', error);
    }
  }

  /** Stops it (SIGTERM, then SIGKILL if it does not stop in time) and waits until its process is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    this.url = null;
    this.adopted = false;
    if (!child) return;
    rmSync(this.runningFile(), { force: true });
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    this.emit('change');
  }

  private launch(port: number): Promise<string> {
    this.lastProblem = null;
    const starting = this.spawnService(port).then(
      (url) => {
        this.url = url;
        this.emit('change');
        return url;
      },
      (error: unknown) => {
        this.lastProblem = error instanceof SampleServiceError ? problemOf(error.words) : { text: error instanceof Error ? error.message : String(error), words: null };
        this.emit('change');
        throw error;
      },
    ).finally(() => {
      if (this.starting === starting) this.starting = null;
    });
    this.starting = starting;
    this.emit('change');
    return starting;
  }

  /** `<profile>/sample-service/running.json`: which process serves this profile's sample service, and where. */
  private runningFile(): string {
    return join(this.options.profileDir, 'sample-service', 'running.json');
  }

  private noteRunning(pid: number | undefined, url: string): void {
    try {
      writeFileSync(this.runningFile(), `${JSON.stringify({ pid, url })}\n`);
    } catch (error) {
      engineLog.warn('sample-service', 'where the sample service runs could not be noted', error);
    }
  }

  /**
   * The address of this profile's sample service when another process runs it on `port` (a `design-sync` command and
   * the window at once, or one whose engine was killed): its note names a live process and that address.
   */
  private runningElsewhere(port: number): string | null {
    let noted: { pid?: unknown; url?: unknown };
    try {
      noted = JSON.parse(readFileSync(this.runningFile(), 'utf8')) as typeof noted;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') engineLog.warn('sample-service', 'the note of where the sample service runs cannot be read', error);
      return null;
    }
    const url = `http://127.0.0.1:${port}`;
    return typeof noted.pid === 'number' && noted.url === url && isAlive(noted.pid) ? url : null;
  }

  private spawnService(port: number): Promise<string> {
    if (!this.runtime) return Promise.reject(new SampleServiceError({ id: 'sample.problem.notIncluded' }));
    const dataDir = join(this.options.profileDir, 'sample-service');
    const { command, args, cwd, env } = serviceCommand(this.runtime, ['--port', String(port), '--data', dataDir, '--demo']);
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new SampleServiceError({ id: 'sample.problem.startTimeout', values: { seconds: Math.round((this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) / 1000) } }));
      }, this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (!listening) return;
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        engineLog.info('sample-service', `the sample service listens on ${listening[1]} (data in ${dataDir})`);
        this.noteRunning(child.pid, listening[1]!);
        resolve(listening[1]!);
      };
      child.stdout!.on('data', onData);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new SampleServiceError({ id: 'sample.problem.couldNotStart', values: { command, problem: error.message } }));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        // The program's own last line (its words, not ours) is said as it came.
        const last = lastLine(err);
        const how = signal ?? `exit ${code}`;
        const words: EngineWords = /EADDRINUSE/.test(err) ? takenWords(port)
          : last ? { id: 'sample.problem.stoppedSaying', values: { how, last } } : { id: 'sample.problem.stopped', values: { how } };
        if (this.child === child) {
          // Not stopped by stop(): said, so that the window can tell why the service is gone.
          this.child = null;
          if (this.url) {
            this.url = null;
            this.lastProblem = problemOf(words);
            engineLog.warn('sample-service', englishOf(words));
            this.emit('change');
          }
        }
        reject(new SampleServiceError(words, /EADDRINUSE/.test(err)));
      });
    });
  }
}

/** Whether a process of that id is alive (signal 0 only asks). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function takenWords(port: number): EngineWords {
  return { id: 'sample.problem.portTaken', values: { port: String(port) } };
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop()?.trim() ?? '';
}
