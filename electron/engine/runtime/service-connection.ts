import { EventEmitter } from 'node:events';
import { BandwidthLimits, kilobytesPerSecond } from '../api/bandwidth';
import { ServiceClient } from '../api/service-client';
import type { Session } from '../authorization/session';
import type { SettingsStore } from '../settings/settings-store';
import { Connectivity, PROBE_TRANSPORT, probeOf } from './connectivity';
import { EngineError } from './engine-error';
import { saveWebAddress, webAddressFacts } from './service-address';

/** The clients made for one service address (remade when another is chosen). */
interface Clients {
  baseUrl: string;
  client: ServiceClient;
  interactive: ServiceClient;
}

/**
 * The chosen service and how it is reached: its address and web address, the clients carrying the session's token,
 * whether it answers (connectivity, its one source) and the profile's upload and download limits shared by every
 * transfer. Choosing another service is the engine's (it stops and restarts the background work around it).
 */
export class ServiceConnection extends EventEmitter<{ service: [] }> {
  /** Whether the service answers: the engine's one source of it (the queue, the status and the window use it). */
  readonly connectivity = new Connectivity();
  /** The upload and download limits (settings maxUploadKBps, maxDownloadKBps), shared by every transfer of the profile. */
  readonly bandwidth: BandwidthLimits;
  private clients: Clients | null = null;

  constructor(private readonly deps: { settings: SettingsStore; session: Session; userAgent: string }) {
    super();
    const settings = deps.settings.read();
    this.bandwidth = new BandwidthLimits({
      uploadBytesPerSecond: kilobytesPerSecond(settings.maxUploadKBps),
      downloadBytesPerSecond: kilobytesPerSecond(settings.maxDownloadKBps),
    });
  }

  get userAgent(): string {
    return this.deps.userAgent;
  }

  serviceUrl(): string | null {
    return this.deps.settings.read().serviceUrl ?? null;
  }

  requireServiceUrl(): string {
    const url = this.serviceUrl();
    if (!url) throw new EngineError({ kind: 'conflict', message: 'No service is chosen yet: set the service address first (e.g. http://127.0.0.1:4010 for the local service).' });
    return url;
  }

  /** The service's web site ({auth_url}: sign-in and design pages): the person's, else derived from the API address. */
  webUrl(): string | null {
    return webAddressFacts(this.deps.settings).webUrl;
  }

  /** The web address in force and whether it is derived from the service address. */
  webAddress(): { webUrl: string | null; derived: boolean } {
    return webAddressFacts(this.deps.settings);
  }

  /** Sets the web address ('' goes back to the derived one); tells 'service'. */
  setWebUrl(raw: string): void {
    saveWebAddress(this.deps.settings, raw);
    this.emit('service');
  }

  /** The client of the chosen service, with the session's token; its answers and failures tell connectivity. */
  client(): ServiceClient {
    return this.ensure().client;
  }

  /**
   * The same, for reads a person is waiting on (opening a design, an author): one quick retry instead of the
   * background's patient backoff, so that an unreachable service shows the cache in well under a second.
   */
  interactiveClient(): ServiceClient {
    return this.ensure().interactive;
  }

  /** The client when a service is chosen, else null (what background services take: they wait without one). */
  clientIfChosen(): ServiceClient | null {
    return this.serviceUrl() ? this.client() : null;
  }

  /** The address the current clients were made for (made now if needed). */
  baseUrl(): string {
    return this.ensure().baseUrl;
  }

  /** Asks the service once now whether it answers (`design-sync status`); false without a service. */
  async checkConnectivity(): Promise<boolean> {
    if (!this.serviceUrl()) return false;
    this.ensure();
    return this.connectivity.checkNow();
  }

  /** New limits in KB/s (0: none), remembered and applied at once, to the transfers under way too. */
  setBandwidthLimits(limits: { maxUploadKBps?: number; maxDownloadKBps?: number }): void {
    const saved = this.deps.settings.update(limits);
    this.bandwidth.upload.setRate(kilobytesPerSecond(saved.maxUploadKBps));
    this.bandwidth.download.setRate(kilobytesPerSecond(saved.maxDownloadKBps));
  }

  /** The upload and download limits in KB/s (0: none). */
  bandwidthLimits(): { maxUploadKBps: number; maxDownloadKBps: number } {
    const { maxUploadKBps, maxDownloadKBps } = this.deps.settings.read();
    return { maxUploadKBps: maxUploadKBps ?? 0, maxDownloadKBps: maxDownloadKBps ?? 0 };
  }

  /** What every client of the profile is made with: connectivity told of answers and problems, the shared limits. */
  transportHooks() {
    return {
      onAnswer: () => this.connectivity.noticeAnswer(),
      onProblem: (problem: Parameters<Connectivity['noticeProblem']>[0]) => this.connectivity.noticeProblem(problem),
      bandwidth: this.bandwidth,
    };
  }

  /** Forgets the clients (another service is being chosen); the next use makes them for the new address. */
  drop(): void {
    this.clients = null;
  }

  private ensure(): Clients {
    const baseUrl = this.requireServiceUrl();
    if (this.clients?.baseUrl === baseUrl) return this.clients;
    const { session, userAgent } = this.deps;
    const client = new ServiceClient(session.transportOptions({ baseUrl, userAgent, ...this.transportHooks() }));
    const interactive = new ServiceClient(session.transportOptions({ baseUrl, userAgent, retry: { retries: 1, minDelayMs: 100, maxDelayMs: 300 }, ...this.transportHooks() }));
    this.clients = { baseUrl, client, interactive };
    this.connectivity.setProbe(probeOf(new ServiceClient(session.transportOptions({ baseUrl, userAgent, ...PROBE_TRANSPORT }))));
    return this.clients;
  }
}
