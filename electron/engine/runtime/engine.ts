import { EventEmitter } from 'node:events';
import { BandwidthLimits, kilobytesPerSecond } from '../api/bandwidth';
import { ServiceClient } from '../api/service-client';
import type { Session } from '../authorization/session';
import type { DesignCache } from '../cache/design-cache';
import { normalizeServiceUrl, type ProfilePaths } from '../profile/profile';
import type { QueueBlock } from '../queue/problem-outcome';
import type { QueueStore } from '../queue/queue-store';
import { ProxySetup } from './proxy-setup';
import type { SettingsStore } from '../settings/settings-store';
import type { TrashMode } from '../sync/local-files';
import type { SyncEvent } from '../sync/sync-context';
import type { SyncDatabase } from '../sync-state/sync-database';
import { SyncRootError, type SyncRoot } from '../sync-state/sync-root';
import { BrowserSignIn } from './browser-sign-in';
import { CatalogueRefresh, DEFAULT_CATALOGUE_REFRESH_MINUTES } from './catalogue-refresh';
import { Connectivity, PROBE_TRANSPORT, probeOf } from './connectivity';
import { engineStatusFacts, eventsOf, SyncStatusService } from './sync-status';
import { DesignChanges } from './design-changes';
import { followDesignEdits } from './design-edits';
import { EngineError } from './engine-error';
import { SearchIndexFill } from './search-index-fill';
import { StoredTokenFollower } from './stored-token-follower';
import { makeSyncParts, type SyncParts } from './sync-parts';
import { engineLog } from '../log/engine-log';
import { SampleService } from '../sample-service/sample-service';
import { KeepOffline } from '../keep-offline/keep-offline';
import type { StartAtLoginHost } from '../settings/start-at-login';
import { saveWebAddress, serviceAddressToSave, webAddressFacts } from './service-address';

export interface EngineConfig {
  profile: ProfilePaths;
  settings: SettingsStore;
  session: Session;
  cache: DesignCache;
  syncDb: SyncDatabase;
  queue: QueueStore;
  userAgent: string;
  /** Why the stored token could not be read at opening (the session is then signed out), or null. */
  tokenProblem: string | null;
  openBrowser?: (url: string) => Promise<void>;
  /** The desktop app's login item, when the front end is the desktop app. */
  startAtLogin?: StartAtLoginHost;
  /** The proxy the service is reached through (runtime/proxy-setup.ts); none applied when absent (tests). */
  proxy?: ProxySetup;
  settleMs: number;
  rescanIntervalMs: number;
  trash: TrashMode;
  signInTimeoutMs?: number;
  /** While in the background, how often the own designs' list is polled for the service's changes (default 30 s). */
  remotePollMs?: number;
}

/** How long uploads under way may take to finish when the engine stops (then they are stopped safely). */
export const DEFAULT_DRAIN_MS = 5_000;

/** Why the background work is not running, when it is not. */
export type BackgroundProblem = { kind: 'queue-locked'; message: string } | { kind: 'sync-failed'; message: string };

/**
 * One profile's engine, opened once by openEngine() and driven by any front end (the CLI, the window host, the
 * Electron shell): the session, the settings, the cache, the sync folder and the upload queue, the catalogue's own
 * pull, connectivity. It knows none of its front ends. startBackground() makes it work on its own, as
 * `design-sync sync --watch` does; close() lets what is being sent stop safely, with nothing queued lost.
 */
export class Engine extends EventEmitter<{ state: []; service: [] }> {
  readonly profile: ProfilePaths;
  readonly settings: SettingsStore;
  /** The proxy the service is reached through: its settings, the password kept apart, which one is in use. */
  readonly proxy: ProxySetup;
  readonly session: Session;
  readonly cache: DesignCache;
  readonly syncDb: SyncDatabase;
  readonly queue: QueueStore;
  /** Whether the service answers: the engine's one source of it (the queue, the status and the window use it). */
  readonly connectivity = new Connectivity();
  /** The upload and download limits (settings maxUploadKBps, maxDownloadKBps), shared by every transfer of the profile. */
  readonly bandwidth: BandwidthLimits;
  /** The one owner of the sync status (runtime/sync-status.ts): computed from typed facts, never stored. */
  readonly syncStatus: SyncStatusService;
  /** What changed in the cache's designs (own designs compared by checkOwn), for whoever shows them. */
  readonly changes: DesignChanges;
  readonly catalogue: CatalogueRefresh;
  /** The search rows of the designs the catalogue's pull added, written behind it (search finds what is written so far). */
  readonly searchIndex: SearchIndexFill;
  /** Designs the person keeps offline: their files brought and held in the file cache (keep-offline/). */
  readonly keepOffline: KeepOffline;
  readonly signIn: BrowserSignIn;
  /** The bundled local service with sample designs, when the profile tries design-sync on it. */
  readonly sampleService: SampleService;
  readonly userAgent: string;
  /** Why the stored token could not be read when the engine opened (signed out then), or null. */
  readonly tokenProblem: string | null;
  /** Opens a web address in the person's browser, when the front end gave a way to (sign-in, a design's page). */
  readonly openBrowser: ((url: string) => Promise<void>) | null;
  /** The desktop app's login item, or null where the front end cannot start itself at login (the CLI, `design-sync ui`). */
  readonly startAtLogin: StartAtLoginHost | null;

  private parts: { baseUrl: string; client: ServiceClient; interactive: ServiceClient; sync: SyncParts | null; unfollow: (() => void)[] } | null = null;
  private background = false;
  private syncStarting: Promise<unknown> | null = null;
  private problem: BackgroundProblem | null = null;
  private closed = false;
  private readonly storedToken: StoredTokenFollower;
  private stopFollowingConnectivity: (() => void) | null = null;
  private readonly offConnectivity: () => void;
  private readonly offDesignEdits: () => void;

  constructor(private readonly config: EngineConfig) {
    super();
    this.profile = config.profile;
    this.settings = config.settings;
    this.proxy = config.proxy ?? new ProxySetup(config.settings, null);
    this.bandwidth = new BandwidthLimits({
      uploadBytesPerSecond: kilobytesPerSecond(config.settings.read().maxUploadKBps),
      downloadBytesPerSecond: kilobytesPerSecond(config.settings.read().maxDownloadKBps),
    });
    this.session = config.session;
    this.storedToken = new StoredTokenFollower(config.session, () => this.closed);
    this.cache = config.cache;
    this.syncDb = config.syncDb;
    this.queue = config.queue;
    this.userAgent = config.userAgent;
    this.tokenProblem = config.tokenProblem;
    this.openBrowser = config.openBrowser ?? null;
    this.startAtLogin = config.startAtLogin ?? null;
    this.sampleService = new SampleService({ profileDir: config.profile.root, settings: config.settings });
    this.on('service', () => void this.sampleService.serviceChosen(this.serviceUrl()));
    this.changes = new DesignChanges(() => config.cache.reader, () => (config.session.state.status !== 'signed-out' ? config.session.state.user?.id ?? null : null));
    this.changes.baseline();
    this.catalogue = new CatalogueRefresh({
      cache: config.cache,
      client: () => (this.serviceUrl() ? this.client() : null),
      intervalMs: () => this.catalogueRefreshMinutes() * 60_000,
    });
    this.searchIndex = new SearchIndexFill(config.cache.db, { paused: () => this.catalogue.pulling });
    this.catalogue.on('finished', ({ summary }) => {
      if (summary) this.changes.catalogueChanged();
      // Also after a pull that stopped: the designs it wrote are searchable once their rows are.
      this.searchIndex.start();
    });
    this.searchIndex.on('filled', () => this.changes.catalogueChanged());
    this.keepOffline = new KeepOffline({
      db: config.cache.db,
      files: config.cache.files,
      client: () => (this.serviceUrl() ? this.client() : null),
      online: () => this.connectivity.state.online,
    });
    // Kept designs the service changed are checked again; what keeping changes, the windows hear as changed designs.
    this.changes.on('designs', (change) => this.keepOffline.designsChanged(change));
    this.keepOffline.on('changed', ({ ids }) => this.changes.designsChanged(ids));
    this.signIn = new BrowserSignIn({
      session: config.session,
      serviceUrl: () => this.requireServiceUrl(),
      webUrl: () => this.webUrl() ?? this.requireServiceUrl(),
      userAgent: config.userAgent,
      ...(config.openBrowser ? { openBrowser: config.openBrowser } : {}),
      ...(config.signInTimeoutMs ? { timeoutMs: config.signInTimeoutMs } : {}),
    });
    // Back online: a stale catalogue is refreshed at once rather than at the next interval.
    const onConnectivity = (state: { online: boolean }) => {
      if (state.online) this.keepOffline.resume();
      if (state.online && this.background && this.catalogue.isStale()) {
        void this.catalogue.pullNow().catch((error: unknown) => engineLog.warn('catalogue', 'the pull of the catalogue once back online failed', error));
      }
    };
    this.connectivity.on('change', onConnectivity);
    this.offConnectivity = () => this.connectivity.off('change', onConnectivity);
    this.syncStatus = new SyncStatusService(() => engineStatusFacts({
      queue: config.queue, session: config.session, serviceUrl: this.serviceUrl(), sync: this.parts?.sync ?? null, backgroundRunning: this.background,
      backgroundProblem: this.problem, contentPolicyAccepted: this.contentPolicyAccepted(), online: this.connectivity.isOnline(),
      proxyProblem: this.connectivity.state.proxyProblem ?? null,
    }));
    this.syncStatus.follow({ subscribe: (listener) => config.session.subscribe(listener) });
    this.syncStatus.follow(eventsOf(this.connectivity, 'change'));
    this.syncStatus.follow(eventsOf(config.queue, 'change'));
    this.syncStatus.follow(eventsOf(this, 'state'));
    this.offDesignEdits = followDesignEdits({ queue: config.queue, cache: config.cache, session: config.session, changes: this.changes, client: () => (this.serviceUrl() ? this.client() : null) });
  }

  // The service

  serviceUrl(): string | null {
    return this.settings.read().serviceUrl ?? null;
  }

  requireServiceUrl(): string {
    const url = this.serviceUrl();
    if (!url) throw new EngineError({ kind: 'conflict', message: 'No service is chosen yet: set the service address first (e.g. http://127.0.0.1:4010 for the local service).' });
    return url;
  }

  /** The service's web site ({auth_url}: sign-in and design pages): the person's, else derived from the API address. */
  webUrl(): string | null {
    return webAddressFacts(this.settings).webUrl;
  }

  /**
   * Chooses the service. Refused while signed in to another one (a token belongs to its service): sign out first.
   * With `check` (the window's Settings and welcome), saved only when a design-sharing service answers there
   * (service-check.ts). Returns the normalized address; tells 'service' when it changed.
   */
  async setServiceUrl(raw: string, options: { check?: boolean } = {}): Promise<string> {
    const current = this.serviceUrl();
    const signedInTo = this.session.state.status === 'signed-out' ? null : this.session.tokenService ?? current;
    const url = await serviceAddressToSave(raw, { current, signedInTo, check: options.check ?? false, userAgent: this.userAgent });
    if (url === null) return normalizeServiceUrl(raw);
    const wasRunning = this.background;
    if (wasRunning) await this.stopBackground();
    await this.dropParts();
    this.settings.update({ serviceUrl: url });
    if (wasRunning) await this.startBackground();
    this.emit('service');
    this.emit('state');
    return url;
  }

  /** Sets the web address ('' goes back to the derived one); tells 'service'. */
  setWebUrl(raw: string): void {
    saveWebAddress(this.settings, raw);
    this.emit('service');
  }

  /** The client of the chosen service, with the session's token; its answers and failures tell connectivity. */
  client(): ServiceClient {
    return this.ensureParts().client;
  }

  /**
   * The same, for reads a person is waiting on (opening a design, an author): one quick retry instead of the
   * background's patient backoff, so that an unreachable service shows the cache in well under a second.
   */
  interactiveClient(): ServiceClient {
    return this.ensureParts().interactive;
  }

  // Settings that the engine applies

  catalogueRefreshMinutes(): number {
    return this.settings.read().catalogueRefreshMinutes ?? DEFAULT_CATALOGUE_REFRESH_MINUTES;
  }

  /**
   * Who the stored token belongs to, asked of the service when it is not known yet (a token read from storage says
   * nothing of its user). Quietly nothing when the service cannot be asked: the session says signed in, user unknown.
   */
  async confirmUser(timeoutMs = 3_000): Promise<void> {
    const state = this.session.state;
    if (state.status !== 'signed-in' || state.user !== null || !this.serviceUrl() || !this.connectivity.state.online) return;
    try {
      this.session.confirmUser(await this.client().whoami(AbortSignal.timeout(timeoutMs)));
    } catch (error) {
      // Offline or refused: a refusal already moved the session to needs-sign-in.
      engineLog.info('session', 'who the stored token belongs to could not be asked', error);
    }
  }

  /** The file cache's size bound, remembered; what no longer fits is evicted at once. */
  setCacheLimit(bytes: number): void {
    this.settings.update({ cacheLimitBytes: bytes });
    this.cache.files.setLimit(bytes);
  }

  /** The upload and download limits in KB/s (0: none). */
  bandwidthLimits(): { maxUploadKBps: number; maxDownloadKBps: number } {
    const { maxUploadKBps, maxDownloadKBps } = this.settings.read();
    return { maxUploadKBps: maxUploadKBps ?? 0, maxDownloadKBps: maxDownloadKBps ?? 0 };
  }

  /** New limits in KB/s (0: none), remembered and applied at once, to the transfers under way too. */
  setBandwidthLimits(limits: { maxUploadKBps?: number; maxDownloadKBps?: number }): void {
    const saved = this.settings.update(limits);
    this.bandwidth.upload.setRate(kilobytesPerSecond(saved.maxUploadKBps));
    this.bandwidth.download.setRate(kilobytesPerSecond(saved.maxDownloadKBps));
  }

  contentPolicyAccepted(): boolean {
    return this.settings.read().contentPolicyAcceptedAt !== undefined;
  }

  /** Rule 5, accepted by the person: the queue may send. */
  acceptContentPolicy(): void {
    if (!this.contentPolicyAccepted()) this.settings.update({ contentPolicyAcceptedAt: new Date().toISOString() });
    this.parts?.sync?.runner.contentPolicyChanged();
    this.emit('state');
  }

  // The sync folder and the queue

  /** The sync engine and queue runner of the chosen service (made on first use). */
  syncParts(): SyncParts {
    const parts = this.ensureParts();
    if (parts.sync) return parts.sync;
    parts.sync = makeSyncParts({
      baseUrl: parts.baseUrl,
      userAgent: this.userAgent,
      session: this.session,
      cache: this.cache,
      db: this.syncDb,
      queue: this.queue,
      transportHooks: this.transportHooks(),
      settleMs: this.config.settleMs,
      rescanIntervalMs: this.config.rescanIntervalMs,
      trash: this.config.trash,
      contentPolicyAccepted: () => this.contentPolicyAccepted(),
      ...(this.config.remotePollMs !== undefined ? { remotePollMs: this.config.remotePollMs } : {}),
      online: () => this.connectivity.state.online,
      connectivity: this.connectivity,
      reviewBeforePublishing: () => this.settings.read().reviewBeforePublishing === true,
    });
    // What the overall state is made of, besides the queue's own rows: tell whoever shows it. While the queue waits
    // for a sign-in, a token another process stores (`design-sync login` in another terminal) is taken up at once.
    // All of it is let go when the parts are dropped (another service chosen): only the new parts are followed.
    const { baseUrl } = parts;
    const { sync, runner } = parts.sync;
    const onBlocked = (block: QueueBlock | null) => {
      this.storedToken.follow(block?.kind === 'sign-in' ? baseUrl : null);
      this.emit('state');
    };
    const onEvent = (event: SyncEvent) => {
      // A pass read the own designs again, or made a design's folder: tell what changed.
      if (event.type === 'remote') this.changes.checkOwn();
      if (event.type === 'folder-created') this.changes.ownSyncChanged([event.designId]);
      // A scan that ran to its end is each linked folder's last sync when it left nothing of it to send: told as the
      // designs' own views, so that no window has to infer it from how the sync view changed.
      if (event.type === 'scan' && event.summary.stopped === null) {
        this.changes.ownSyncChanged(sync.folders.all().flatMap((folder) => (folder.state === 'linked' && folder.designId !== null ? [folder.designId] : [])));
      }
      if (event.type === 'stopped' || event.type === 'resumed' || event.type === 'warning') this.emit('state');
    };
    runner.on('blocked', onBlocked);
    sync.on('event', onEvent);
    parts.unfollow.push(
      this.syncStatus.follow(eventsOf(sync, 'state')),
      () => runner.off('blocked', onBlocked),
      () => sync.off('event', onEvent),
    );
    return parts.sync;
  }

  syncFolder(): SyncRoot | null {
    return this.syncParts().sync.root.current();
  }

  /** Makes `path` the profile's sync folder; SyncRootError's words become a 'sync-folder' problem. */
  async chooseSyncFolder(path: string): Promise<SyncRoot> {
    let root: SyncRoot;
    try {
      root = this.syncParts().sync.root.choose(path, { profileDir: this.profile.root });
    } catch (error) {
      if (error instanceof SyncRootError) throw new EngineError({ kind: 'sync-folder', message: error.message });
      throw error;
    }
    if (this.background) this.startSyncInBackground();
    return root;
  }

  get backgroundRunning(): boolean {
    return this.background;
  }

  /** Why part of the background work could not start (another process sends this profile's queue…), or null. */
  get backgroundProblem(): BackgroundProblem | null {
    return this.problem;
  }

  /**
   * Works on its own until stopBackground() or close(): the sync folder kept in step and the queue sent (once a folder
   * is chosen), sign-in and connectivity followed, the catalogue refreshed on its schedule.
   */
  async startBackground(): Promise<void> {
    if (this.closed) throw new EngineError({ kind: 'internal', message: 'The engine is closed.' });
    if (this.background) return;
    this.background = true;
    this.problem = null;
    // A profile trying the sample service has it started again, on its address, before anything asks it.
    await this.sampleService.resume();
    // What a pull left unindexed (the engine stopped, or the process ended, before the fill was done).
    this.searchIndex.start();
    if (this.serviceUrl()) {
      // What a kept design still lacks (the last run stopped mid-way).
      this.keepOffline.bringWhatIsMissing();
      this.ensureParts();
      this.stopFollowingConnectivity = this.connectivity.follow();
      this.catalogue.startSchedule();
      if (this.syncParts().sync.root.current()) this.startSyncInBackground();
      else if (this.queue.pendingDesignEdits().length > 0) this.startQueueRunner();
    }
    this.emit('state');
  }

  /**
   * Edits of designs wait in the queue even without a sync folder: when one is queued while the background work
   * runs, the queue runner is started if it was not (it sends them when the service is back).
   */
  queueWorkAdded(): void {
    if (this.background && this.serviceUrl()) this.startQueueRunner();
  }

  private startQueueRunner(): void {
    const { runner } = this.syncParts();
    if (runner.isRunning) return;
    try {
      runner.start();
    } catch (error) {
      this.problem = { kind: 'queue-locked', message: (error as Error).message };
      engineLog.warn('queue', 'the queue runner could not start', error);
    }
  }

  /**
   * Stops the background work. Uploads under way get up to `drainMs` to finish (so their outcome is known and nothing
   * is sent twice); the rest stop safely, go back in line and are reconciled with the service at the next start.
   */
  async stopBackground(options: { drainMs?: number } = {}): Promise<void> {
    if (!this.background) return;
    this.background = false;
    this.stopFollowingConnectivity?.();
    this.stopFollowingConnectivity = null;
    await this.catalogue.stop();
    const starting = this.syncStarting;
    this.syncStarting = null;
    // Waits for it to end: a failure to start was kept as the background problem (startSyncInBackground).
    await Promise.allSettled([starting]);
    const sync = this.parts?.sync;
    if (sync) {
      await sync.runner.stop({ drainMs: options.drainMs ?? DEFAULT_DRAIN_MS });
      await sync.sync.stop();
    }
    this.storedToken.follow(null);
    this.emit('state');
  }

  /**
   * Stops everything: uploads in flight get a few seconds to finish, then stop safely (reconciled at the next start);
   * nothing queued is lost.
   */
  async close(options: { drainMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.signIn.cancel();
    await this.stopBackground(options);
    // Between two slices: the rest of the backlog stays for the next run.
    await this.searchIndex.stop();
    await this.keepOffline.close();
    this.closed = true;
    this.offConnectivity();
    this.connectivity.setProbe(null);
    this.syncStatus.close();
    this.offDesignEdits();
    await this.dropParts();
    await this.sampleService.stop();
    this.cache.close();
    if (this.syncDb.open) this.syncDb.close();
  }

  private startSyncInBackground(): void {
    const { sync } = this.syncParts();
    this.startQueueRunner();
    if (this.syncStarting) return;
    const starting = sync.start({ watch: true, firstPass: { settle: 'once' } }).catch((error: unknown) => {
      this.problem = { kind: 'sync-failed', message: `Sync could not start: ${error instanceof Error ? error.message : String(error)}` };
      engineLog.warn('sync', 'sync could not start', error);
    });
    this.syncStarting = starting;
  }

  private ensureParts(): NonNullable<Engine['parts']> {
    const baseUrl = this.requireServiceUrl();
    if (this.parts?.baseUrl === baseUrl) return this.parts;
    const client = new ServiceClient(this.session.transportOptions({ baseUrl, userAgent: this.userAgent, ...this.transportHooks() }));
    const interactive = new ServiceClient(this.session.transportOptions({ baseUrl, userAgent: this.userAgent, retry: { retries: 1, minDelayMs: 100, maxDelayMs: 300 }, ...this.transportHooks() }));
    this.parts = { baseUrl, client, interactive, sync: null, unfollow: [] };
    this.connectivity.setProbe(probeOf(new ServiceClient(this.session.transportOptions({ baseUrl, userAgent: this.userAgent, ...PROBE_TRANSPORT }))));
    return this.parts;
  }

  /** Asks the service once now whether it answers (`design-sync status`); false without a service. */
  async checkConnectivity(): Promise<boolean> {
    if (!this.serviceUrl()) return false;
    this.ensureParts();
    return this.connectivity.checkNow();
  }

  private transportHooks() {
    return {
      onAnswer: () => this.connectivity.noticeAnswer(),
      onProblem: (problem: Parameters<Connectivity['noticeProblem']>[0]) => this.connectivity.noticeProblem(problem),
      bandwidth: this.bandwidth,
    };
  }

  private async dropParts(): Promise<void> {
    this.storedToken.follow(null);
    const sync = this.parts?.sync;
    for (const unfollow of this.parts?.unfollow.splice(0) ?? []) unfollow();
    this.parts = null;
    if (sync) {
      await sync.runner.stop();
      await sync.sync.stop();
    }
  }
}
