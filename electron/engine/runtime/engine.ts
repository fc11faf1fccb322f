import { EventEmitter } from 'node:events';
import type { Session } from '../authorization/session';
import type { DesignCache } from '../cache/design-cache';
import { normalizeServiceUrl, type ProfilePaths } from '../profile/profile';
import { QueueService } from '../queue/queue-service';
import type { QueueStore } from '../queue/queue-store';
import { ProxySetup } from './proxy-setup';
import type { SettingsStore } from '../settings/settings-store';
import type { TrashMode } from '../sync/local-files';
import type { SyncDatabase } from '../sync-state/sync-database';
import { Account } from './account';
import { AppSettings } from './app-settings';
import { BrowserSignIn } from './browser-sign-in';
import { CatalogueRefresh } from './catalogue-refresh';
import { engineStatusFacts, eventsOf, SyncStatusService } from './sync-status';
import { DesignChanges } from './design-changes';
import { followDesignEdits } from './design-edits';
import { EngineError } from './engine-error';
import { SearchIndexFill } from './search-index-fill';
import { ServiceConnection } from './service-connection';
import { SyncService, type BackgroundProblem } from './sync-service';
import { engineLog } from '../log/engine-log';
import { SampleService } from '../sample-service/sample-service';
import { KeepOffline } from '../keep-offline/keep-offline';
import type { StartAtLoginHost } from '../settings/start-at-login';
import { serviceAddressToSave } from './service-address';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { environmentLanguages, resolveLocale } from '../../../shared/i18n/locales';
import { languageSetting } from '../settings/language';

export type { BackgroundProblem } from './sync-service';

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
  /** Its facts, for a front end to word in the person's language (null: said only in English). */
  tokenProblemWords?: EngineWords | null;
  /** The system's languages as the desktop app gives them; absent: the environment's. */
  systemLanguages?: readonly string[];
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

/**
 * One profile's engine, opened once by openEngine(): it composes the runtime's services (the service connection, the
 * account, the settings it applies, the sync folder and queue runner, the catalogue's pull, the search index's fill,
 * kept designs, the sync status, the sample service) over the profile's stores, and owns their lifecycle:
 * startBackground() makes it work on its own, as `design-sync sync --watch` does; setServiceUrl() restarts that work
 * on another service; close() lets what is being sent stop safely, with nothing queued lost. It knows none of its
 * front ends; they reach it through the services (composition/engine-services.ts), never its stores.
 */
export class Engine extends EventEmitter<{ state: []; service: [] }> {
  readonly profile: ProfilePaths;
  /** The profile's stores: read and written only by the services below (and the composition, and tests). */
  readonly cache: DesignCache;
  readonly syncDb: SyncDatabase;
  readonly queue: QueueStore;

  /** The chosen service, its clients, whether it answers (connectivity) and the transfer limits. */
  readonly connection: ServiceConnection;
  readonly account: Account;
  readonly appSettings: AppSettings;
  /** The sync folder and the queue's runner of the chosen service. */
  readonly sync: SyncService;
  /** What a person decides about the queue (retry, cancel, pause, confirm…) and what each triggers. */
  readonly queueService: QueueService;
  /** The one owner of the sync status (runtime/sync-status.ts): computed from typed facts, never stored. */
  readonly syncStatus: SyncStatusService;
  /** What changed in the cache's designs (own designs compared by checkOwn), for whoever shows them. */
  readonly changes: DesignChanges;
  readonly catalogue: CatalogueRefresh;
  /** The search rows of the designs the catalogue's pull added, written behind it (search finds what is written so far). */
  readonly searchIndex: SearchIndexFill;
  /** Designs the person keeps offline: their files brought and held in the file cache (keep-offline/). */
  readonly keepOffline: KeepOffline;
  /** The bundled local service with sample designs, when the profile tries design-sync on it. */
  readonly sampleService: SampleService;
  /** Opens a web address in the person's browser, when the front end gave a way to (sign-in, a design's page). */
  readonly openBrowser: ((url: string) => Promise<void>) | null;

  private background = false;
  private closed = false;
  private readonly closing: (() => Promise<void> | void)[] = [];
  private stopFollowingConnectivity: (() => void) | null = null;
  private readonly offConnectivity: () => void;
  private readonly offDesignEdits: () => void;

  constructor(private readonly config: EngineConfig) {
    super();
    this.profile = config.profile;
    this.cache = config.cache;
    this.syncDb = config.syncDb;
    this.queue = config.queue;
    this.openBrowser = config.openBrowser ?? null;
    const { settings, session } = config;
    this.connection = new ServiceConnection({ settings, session, userAgent: config.userAgent });
    this.connection.on('service', () => this.emit('service'));
    this.appSettings = new AppSettings(settings, config.cache.files, this.connection, config.proxy ?? new ProxySetup(settings, null), config.startAtLogin ?? null);
    const signIn = new BrowserSignIn({
      session,
      serviceUrl: () => this.connection.requireServiceUrl(),
      webUrl: () => this.connection.webUrl() ?? this.connection.requireServiceUrl(),
      userAgent: config.userAgent,
      // The browser's last page in the person's language: the setting, or the system's as the environment gives it.
      locale: () => resolveLocale(languageSetting(settings), config.systemLanguages ?? environmentLanguages(process.env)),
      ...(config.openBrowser ? { openBrowser: config.openBrowser } : {}),
      ...(config.signInTimeoutMs ? { timeoutMs: config.signInTimeoutMs } : {}),
    });
    this.account = new Account(session, signIn, this.connection, config.tokenProblem, config.tokenProblemWords ?? null);
    this.sampleService = new SampleService({ profileDir: config.profile.root, settings });
    this.on('service', () => void this.sampleService.serviceChosen(this.connection.serviceUrl()));
    this.changes = new DesignChanges(() => config.cache.reader, () => (session.state.status !== 'signed-out' ? session.state.user?.id ?? null : null));
    this.changes.baseline();
    const client = () => this.connection.clientIfChosen();
    this.catalogue = new CatalogueRefresh({
      cache: config.cache,
      client,
      intervalMs: () => this.appSettings.catalogueRefreshMinutes() * 60_000,
    });
    this.searchIndex = new SearchIndexFill(config.cache.db, { paused: () => this.catalogue.pulling });
    this.catalogue.on('finished', ({ summary }) => {
      if (summary) this.changes.catalogueChanged();
      // Also after a pull that stopped: the designs it wrote are searchable once their rows are.
      this.searchIndex.start();
    });
    this.searchIndex.on('filled', () => this.changes.catalogueChanged());
    const connectivity = this.connection.connectivity;
    this.keepOffline = new KeepOffline({
      db: config.cache.db,
      files: config.cache.files,
      client,
      online: () => connectivity.state.online,
    });
    // Kept designs the service changed are checked again; what keeping changes, the windows hear as changed designs.
    this.changes.on('designs', (change) => this.keepOffline.designsChanged(change));
    this.keepOffline.on('changed', ({ ids }) => this.changes.designsChanged(ids));
    // Back online: a stale catalogue is refreshed at once rather than at the next interval.
    const onConnectivity = (state: { online: boolean }) => {
      if (state.online) this.keepOffline.resume();
      if (state.online && this.background && this.catalogue.isStale()) {
        void this.catalogue.pullNow().catch((error: unknown) => engineLog.warn('catalogue', 'the pull of the catalogue once back online failed', error));
      }
    };
    connectivity.on('change', onConnectivity);
    this.offConnectivity = () => connectivity.off('change', onConnectivity);
    this.syncStatus = new SyncStatusService(() => engineStatusFacts({
      queue: config.queue, session, serviceUrl: this.connection.serviceUrl(), sync: this.sync.currentParts(), backgroundRunning: this.background,
      backgroundProblem: this.sync.problem, contentPolicyAccepted: this.sync.contentPolicyAccepted(), online: connectivity.isOnline(),
      proxyProblem: connectivity.state.proxyProblem ?? null,
      proxyProblemWords: connectivity.state.proxyProblemWords ?? null,
    }));
    this.sync = new SyncService({
      connection: this.connection,
      session,
      settings,
      cache: config.cache,
      syncDb: config.syncDb,
      queue: config.queue,
      changes: this.changes,
      syncStatus: this.syncStatus,
      profileDir: config.profile.root,
      background: () => this.background,
      closed: () => this.closed,
      settleMs: config.settleMs,
      rescanIntervalMs: config.rescanIntervalMs,
      trash: config.trash,
      ...(config.remotePollMs !== undefined ? { remotePollMs: config.remotePollMs } : {}),
    });
    this.sync.on('state', () => this.emit('state'));
    this.queueService = new QueueService({
      store: config.queue,
      workAdded: () => this.sync.queueWorkAdded(),
      decisionTaken: (designIds) => this.sync.decisionTaken(designIds),
      discardConflictCopy: (path) => this.sync.syncParts().sync.discardConflictCopy(path),
    });
    this.syncStatus.follow({ subscribe: (listener) => session.subscribe(listener) });
    this.syncStatus.follow(eventsOf(connectivity, 'change'));
    this.syncStatus.follow(eventsOf(config.queue, 'change'));
    this.syncStatus.follow(eventsOf(this, 'state'));
    this.offDesignEdits = followDesignEdits({ queue: config.queue, cache: config.cache, session, changes: this.changes, client });
  }

  /**
   * Chooses the service. Refused while signed in to another one (a token belongs to its service): sign out first.
   * With `check` (the window's Settings and welcome), saved only when a design-sharing service answers there
   * (service-check.ts). The background work stops, and starts again on the new service. Returns the normalized
   * address; tells 'service' when it changed.
   */
  async setServiceUrl(raw: string, options: { check?: boolean } = {}): Promise<string> {
    const current = this.connection.serviceUrl();
    const session = this.account.session;
    const signedInTo = session.state.status === 'signed-out' ? null : session.tokenService ?? current;
    const url = await serviceAddressToSave(raw, { current, signedInTo, check: options.check ?? false, userAgent: this.config.userAgent });
    if (url === null) return normalizeServiceUrl(raw);
    const wasRunning = this.background;
    if (wasRunning) await this.stopBackground();
    await this.sync.drop();
    this.connection.drop();
    this.config.settings.update({ serviceUrl: url });
    if (wasRunning) await this.startBackground();
    this.emit('service');
    this.emit('state');
    return url;
  }

  /** Called when the engine closes, before its stores: the composition's services let go of what they hold. */
  whenClosing(close: () => Promise<void> | void): void {
    this.closing.push(close);
  }

  get backgroundRunning(): boolean {
    return this.background;
  }

  /** Why part of the background work could not start (another process sends this profile's queue…), or null. */
  get backgroundProblem(): BackgroundProblem | null {
    return this.sync.problem;
  }

  /**
   * Works on its own until stopBackground() or close(): the sync folder kept in step and the queue sent (once a folder
   * is chosen), sign-in and connectivity followed, the catalogue refreshed on its schedule.
   */
  async startBackground(): Promise<void> {
    if (this.closed) throw new EngineError({ kind: 'internal', message: 'The engine is closed.' });
    if (this.background) return;
    this.background = true;
    this.sync.clearProblem();
    // A profile trying the sample service has it started again, on its address, before anything asks it.
    await this.sampleService.resume();
    // What a pull left unindexed (the engine stopped, or the process ended, before the fill was done).
    this.searchIndex.start();
    if (this.connection.serviceUrl()) {
      // What a kept design still lacks (the last run stopped mid-way).
      this.keepOffline.bringWhatIsMissing();
      this.connection.baseUrl();
      this.stopFollowingConnectivity = this.connection.connectivity.follow();
      this.catalogue.startSchedule();
      this.sync.startBackground();
    }
    this.emit('state');
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
    await this.sync.stopBackground(options.drainMs ?? DEFAULT_DRAIN_MS);
    this.emit('state');
  }

  /**
   * Stops everything: uploads in flight get a few seconds to finish, then stop safely (reconciled at the next start);
   * nothing queued is lost.
   */
  async close(options: { drainMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.account.signIn.cancel();
    await this.stopBackground(options);
    // The services composed over the engine (composition/engine-services.ts) let go first: they use what closes below.
    for (const close of this.closing.splice(0).reverse()) await close();
    // Between two slices: the rest of the backlog stays for the next run.
    await this.searchIndex.stop();
    await this.keepOffline.close();
    this.closed = true;
    this.offConnectivity();
    this.connection.connectivity.setProbe(null);
    this.syncStatus.close();
    this.offDesignEdits();
    await this.sync.drop();
    this.connection.drop();
    await this.sampleService.stop();
    this.cache.close();
    if (this.syncDb.open) this.syncDb.close();
  }
}
