import type { LanguageSetting } from '../i18n/locales';
import type { EngineWords } from '../i18n/engine-words';
import type { License } from '../licenses/licenses';
import type { FieldErrors } from '../validation/field-errors';
import type { QueueItemView, QueueState, SyncRunState } from '../sync/sync-types';

/**
 * What the engine hands a window: plain JSON (times as ISO 8601 strings, no class instances), the same through
 * Electron's structured clone and a WebSocket. File bytes never travel here: images and models are addresses
 * (`/files/…`) that the host serves from the file cache.
 */

export type IsoTime = string;

export interface AccountView {
  status: 'signed-out' | 'signed-in' | 'needs-sign-in';
  user: { id: number; screenName: string; realName: string | null; avatarUrl: string | null } | null;
  /** Why a new sign-in is needed, in English words. */
  reason: string | null;
  /**
   * The same as a code, for a front end to word in its language: the service no longer accepts the sign-in
   * (`sign-in-refused`), or the sign-in kept here cannot be used (`stored-sign-in-unusable`: a token file others can
   * read, another service's sign-in…, whose particulars only `reason` says); null when no reason.
   */
  reasonCode: 'sign-in-refused' | 'stored-sign-in-unusable' | null;
  /** The facts of `reason` when the engine has them (an unusable stored sign-in), for a front end to word. */
  reasonWords?: EngineWords | null;
  serviceUrl: string | null;
  /** Where the token is kept ("in the system keychain", "in a file only you can read"), never the token; in English. */
  tokenKeptIn: string;
  /** Its facts, which a front end words in the person's language (tokenKeptInWords); absent or null: show `tokenKeptIn`. */
  tokenKeptInWords?: EngineWords | null;
  /** Whether a browser sign-in is under way (its address in `signInUrl`). */
  signingIn: boolean;
  signInUrl: string | null;
}

/** Spec §1 rule 2, for one design: who to credit, or why that cannot be said now. */
export interface AttributionView {
  required: boolean;
  /** "“Gear” by alice, licensed Creative Commons Attribution"; null when none is required, or unavailable. */
  text: string | null;
  /** The license needs attribution but the author is not known and could not be read: show this, not the design as if none were needed. */
  unavailable: boolean;
}

/** A license with its meaning (already plain data: the same object crosses). */
export type LicenseView = License;

export interface DesignCard {
  id: number;
  slug: string | null;
  name: string;
  excerpt: string;
  author: { id: number | null; screenName: string | null };
  license: LicenseView | null;
  attribution: AttributionView;
  state: string | null;
  own: boolean;
  /**
   * The cover's small rendition, served by the host (null: none cached and none known); for a design with no image,
   * the picture made here from its first model when there is one (`thumbnailGenerated`).
   */
  thumbnailUrl: string | null;
  /** `thumbnailUrl` is a picture rendered here from `thumbnailModel`, not an image of the design (never uploaded unless the person uses it as the cover). */
  thumbnailGenerated: boolean;
  /**
   * A design with no image: the model its picture is made from (null when it has an image, no model the window
   * shows, or its model could not be drawn). With no `thumbnailUrl`, the window renders one and sends it to its host.
   */
  thumbnailModel: ThumbnailModelView | null;
  createdAt: IsoTime | null;
  updatedAt: IsoTime | null;
  /** When the service last vouched for this copy. */
  checkedAt: IsoTime | null;
  /** The person keeps it offline (all its files downloaded and never evicted). */
  keptOffline: boolean;
}

/** The model a design's picture is made from (see DesignCard.thumbnailModel). */
export interface ThumbnailModelView {
  documentId: number;
  /** The model file's own name ("cube20.stl"): "Generated from cube20.stl". */
  fileName: string;
  type: string;
  /** Its bytes, served by the host from the file cache (fetched when small enough: none past 64 MiB only for a picture). */
  modelUrl: string;
  /** The model document's `updated_at`: a picture of another version is made again. */
  version: string | null;
}

/** The model of a folder proposed as a new design (not on the service yet): its picture is drawn while it is shown. */
export interface ProposalModelView {
  fileName: string;
  type: string;
  /** Its bytes, read by the host from the sync folder. */
  modelUrl: string;
}

export type LibrarySort = 'newest' | 'popular' | 'name' | 'updated';

export interface LibraryPage {
  /** How many designs match in all (for a scrollbar over 100,000 designs without sending them). */
  total: number;
  /**
   * The count stopped early: at least `total` designs match (shown as "10,000+ designs"); 'library.count' counts
   * them all.
   */
  totalIsLowerBound: boolean;
  offset: number;
  items: DesignCard[];
  /** When the catalogue was last pulled whole (null: never). */
  catalogueCheckedAt: IsoTime | null;
  /**
   * For a search: how many cached designs it could not see yet, their search rows still being written behind the
   * catalogue's pull (0 when it saw them all, and when nothing was searched).
   */
  notSearchedYet: number;
}

export interface ImageView {
  id: number;
  name: string;
  /** Served by the host from the file cache, fetched on demand when online. */
  thumbnailUrl: string;
  largeUrl: string;
  /** Whether the large rendition is in the file cache (works offline). */
  cached: boolean;
}

export interface DocumentView {
  id: number;
  name: string;
  /** The file type, from its name (stl, obj, pdf…). */
  type: string;
  /** In bytes, when known (the service's lists do not say; known once the file is cached). */
  size: number | null;
  isModel: boolean;
  /** For the 3D preview only (served by the host, never a link to the service's file: rule 1). Null when not a model. */
  previewUrl: string | null;
  cached: boolean;
}

export interface AuthorView {
  id: number;
  screenName: string;
  realName: string | null;
  location: string | null;
  skills: string[];
  avatarUrl: string | null;
  /** The author's page on the service (opened in the system browser). */
  pageUrl: string | null;
}

export interface DesignDetail {
  card: DesignCard;
  /** The service's HTML as received: the window sanitizes it before showing it. */
  descriptionHtml: string;
  /**
   * The service's `attribution` field as plain text (markup dropped): the source an adapted design credits, shown
   * as "Based on …" beside the license's attribution line; null when it gives none.
   */
  basedOn: string | null;
  tags: string[];
  images: ImageView[];
  /** The image shown as the design's cover (one of `images`), or null. */
  primaryImageId: number | null;
  documents: DocumentView[];
  author: AuthorView | null;
  /** The design's page on the service: what "open in browser" opens (rule 1: never its 3D files). */
  pageUrl: string | null;
  /** Whether the images and documents lists came from the service or the cache (and how old). */
  listsCheckedAt: IsoTime | null;
  /** Kept offline: where its files are (null: not kept; its files are cached as they are viewed, and may be evicted). */
  kept: KeptDesignView | null;
}

export interface AuthorPage {
  author: AuthorView;
  designs: DesignCard[];
  /** False when the service could not be asked: what the cache knows of the author. */
  fromService: boolean;
}

export type OwnSyncState =
  /** In the sync folder and nothing waits. */
  | 'synced'
  /** Changes of its files are queued or being sent. */
  | 'syncing'
  /** Something of it waits for the person (a deletion to confirm, a refused file…). */
  | 'attention'
  /** A change of it failed. */
  | 'error'
  /** No sync folder, or the design has no folder in it yet. */
  | 'not-synced';

export interface OwnDesignView {
  card: DesignCard;
  published: boolean;
  folder: string | null;
  syncState: OwnSyncState;
  /** Queue items of this design not done yet. */
  pending: number;
  /** What its waiting changes mean now (an edit saved here waits for the service…), in English words; null when none wait. */
  note: string | null;
  /** The same as codes with their facts, in the order said, for a front end to word in its language; empty when none wait. */
  notes: OwnDesignNote[];
  /** Its folder's state as My designs says it: in step, uploading n, waiting for you, conflict, no folder yet. */
  folderState: OwnFolderState;
  /** File changes of its folder being sent or waiting to be ("Uploading 2"). */
  uploading: number;
  /** Items of it that wait for the person. */
  needsYou: number;
  /** Its images and documents on the service (as last known). */
  files: OwnFileCounts;
  /** When a file of its folder was last found the same here and on the service; null when none was yet. */
  lastSyncedAt: IsoTime | null;
}

/**
 * One thing a design's waiting changes mean now: its edits saved here are being sent (`edits-sending`) or wait for the
 * service (`edits-waiting`), nothing is sent until the content policy is accepted (`content-policy`), `count` file
 * changes wait for the service (`files-waiting`).
 */
export type OwnDesignNote =
  | { kind: 'edits-sending' | 'edits-waiting' | 'content-policy' }
  | { kind: 'files-waiting'; count: number };

/** A design's folder as My designs says it (see OwnDesignView.folderState). */
export type OwnFolderState = 'in-step' | 'uploading' | 'sending' | 'waiting-for-you' | 'conflict' | 'failed' | 'no-folder';

export interface OwnFileCounts {
  images: number;
  documents: number;
}

/** A file dropped on a design (or picked for it), now in the design's folder: the sync folder and the queue upload it. */
export interface DroppedFileView {
  designId: number;
  /** The name it has in the folder: the dropped name, or `name (2).ext` when that was taken. */
  fileName: string;
  /** The design's folder, in the sync folder. */
  folder: string;
  /** The file's path relative to the sync folder (`folder/fileName`): what its queue item names. */
  path: string;
  size: number;
  /** Rule 5: nothing is uploaded until the person accepts the content policy; false says the file waits for that. */
  contentPolicyAccepted: boolean;
}

/** A queue item as a window sees it: the engine's view, with ISO times. */
export type QueueEntry = Omit<QueueItemView, 'remoteId' | 'nextAttemptAt' | 'createdAt' | 'updatedAt'> & {
  /** What an item without a path is about, in words (an edit of a design: its name). */
  title?: string | null;
  /** A file changed both here and on the service: both versions, with when each was last changed. */
  conflict?: ConflictView | null;
  /** A file being sent: its smoothed rate in bytes per second, null until known. */
  bytesPerSecond?: number | null;
  nextAttemptAt: IsoTime | null;
  createdAt: IsoTime;
  updatedAt: IsoTime;
};

export interface ConflictView {
  /** The file's name in the folder, which now holds the service's version. */
  servicePath: string;
  /** Where the person's own version was kept (the conflicted copy). */
  copyPath: string;
  serviceChangedAt: IsoTime | null;
  copyChangedAt: IsoTime | null;
}

export interface ActivityView {
  id: number;
  at: IsoTime;
  level: 'info' | 'warning' | 'error';
  /** In English: for the log, and lines written before their facts were kept. */
  message: string;
  /** The line's facts, which the window words in the person's language (engineWordsText); null or absent: show `message`. */
  words?: EngineWords | null;
  path: string | null;
}

/** The one state a person sees; it never hides an error. */
export type OverallSyncState =
  /** No service or no sync folder chosen yet. */
  | 'not-set-up'
  | 'up-to-date'
  /** Looking for changes, or sending them (with counts). */
  | 'syncing'
  /** Paused by the person (the queue), or sync not running. */
  | 'paused'
  /** Something only the person can do: accept the content policy, confirm a deletion or a new design… ("Waiting for you"). */
  | 'attention'
  /** The service does not answer (never said while it does). */
  | 'offline'
  /** Nobody is signed in, or the service no longer accepts the sign-in. */
  | 'signed-out'
  /** Sync stopped (the folder vanished…), a change failed, or the background work could not start. */
  | 'error';

/**
 * Why the state is what it is: one code per case, with the facts its words need in the view (counts, folder, the
 * service's address, until when, a detail already in words). The words are made at the edge, by
 * shared/sync/sync-state-words.ts syncReasonWords(), the same for the window, the tray and the CLI.
 */
export type SyncReasonCode =
  | 'no-service'
  | 'no-folder'
  | 'in-step'
  /** Up to date, but the folder's watcher failed: changes are found by rescans (detail: the watcher's words). */
  | 'watcher-degraded'
  | 'looking'
  | 'sending'
  /** The service asked to slow down: sending resumes at `until`. */
  | 'rate-limited'
  | 'uploads-paused'
  | 'not-running'
  | 'content-policy'
  | 'items-need-you'
  | 'service-unreachable'
  | 'signed-out'
  | 'sign-in-refused'
  /** The sync folder is not there as it was (detail: which, and what to do). */
  | 'folder-unavailable'
  | 'changes-failed'
  /** Another process sends this profile's queue (detail: which). */
  | 'queue-locked'
  | 'sync-failed'
  /** The service answered with a problem of its own when read: tried again later. */
  | 'service-failed';

export interface SyncView {
  state: OverallSyncState;
  reasonCode: SyncReasonCode;
  /** What the state means now and what to do, in words: syncReasonWords() of this view (the same everywhere). */
  reason: string | null;
  /** The service's address (for 'service-unreachable'). */
  serviceUrl: string | null;
  /** Until when the state lasts by itself ('rate-limited'), or null. */
  until: IsoTime | null;
  /** A detail in English ('folder-unavailable', 'queue-locked', 'watcher-degraded', a proxy's problem), or null. */
  detail: string | null;
  /** Its facts, which a front end words in the person's language (syncReasonWords does); null or absent: `detail` as it is. */
  detailWords?: EngineWords | null;
  /** The engine's own run state, for detail. */
  runState: SyncRunState;
  folder: string | null;
  /** Sync is running in the background (watching the folder, sending the queue). */
  running: boolean;
  queuePaused: boolean;
  /** When a timed pause of the uploads ends by itself ("Pause for 1 hour"), or null: not paused, or until resumed. */
  queuePausedUntil?: IsoTime | null;
  lastScanAt: IsoTime | null;
  counts: Record<QueueState, number>;
  /** Bytes sent and to send of what is uploading now. */
  bytesSent: number;
  bytesTotal: number;
  /** The files of the current burst of uploads with their bytes, rate and time left; null when none is under way. */
  uploads?: UploadProgressView | null;
  /** The person acknowledged the content policy (rule 5); until then nothing is uploaded. */
  contentPolicyAccepted: boolean;
  /** A problem of the folder watcher (limit reached…): sync goes on with rescans. In English. */
  watcherWarning: string | null;
  /** Its facts, which a front end words in the person's language; null or absent: `watcherWarning` as it is. */
  watcherWarningWords?: EngineWords | null;
  /** What the scans held back (never sent), grouped by why: "3 Blender backups not sent". */
  heldBack: HeldBackGroupView[];
}

/** Why a file or folder is never sent: an entry of the built-in list, or a line of an ignore file. */
export type HoldReasonView =
  | { source: 'built-in'; ruleId: string; tool: string; label: string; pattern: string }
  | { source: 'ignore-file'; file: string; line: number; pattern: string };

/** What the scans held back for one reason. */
export interface HeldBackGroupView {
  key: string;
  reason: HoldReasonView;
  count: number;
  /** Of them, files synced before they became ignored: they stay on the service as they were. */
  onService: number;
  /** A few of their paths (relative to the sync folder; a folder's ends with '/'). */
  examples: string[];
}

/** One entry of the built-in list of names never sent, with where the tool's habit is documented. */
export interface BuiltInRuleView {
  id: string;
  tool: string;
  label: string;
  patterns: string[];
  source: string;
}

/** What is never sent, for the Sync view's "Never sent" and `design-sync ignore`. */
export interface NeverSentView {
  /**
   * The sync folder's ignore file: its path (null while no sync folder is chosen) and text ('' when there is none); why
   * it cannot be used in English (`problem`) and as facts the window words (`problemWords`).
   */
  ignoreFile: { path: string | null; text: string; problem: string | null; problemWords?: EngineWords | null };
  builtIn: BuiltInRuleView[];
  heldBack: HeldBackGroupView[];
}

/**
 * The uploads since the queue was last idle (done, being sent, waiting), computed by the engine's one owner
 * (electron/engine/queue/upload-progress.ts); uploadProgressWords() says it ("Uploading 3 of 7 · 12 MB of 40 MB").
 */
export interface UploadProgressView {
  filesDone: number;
  filesSending: number;
  filesTotal: number;
  bytesSent: number;
  bytesTotal: number;
  /** Smoothed over the last few seconds; null until it is known (a few seconds in). */
  bytesPerSecond: number | null;
  /** From the smoothed rate; null while the rate is not known. */
  secondsLeft: number | null;
}

export interface QueueView {
  items: QueueEntry[];
  activity: ActivityView[];
}

export interface PullView {
  designs: { inserted: number; updated: number; unchanged: number; removed: number };
  ownDesigns: { inserted: number; updated: number; unchanged: number; removed: number } | null;
  listingComplete: boolean;
  filesDownloaded: number;
  warnings: string[];
  durationMs: number;
  finishedAt: IsoTime;
}

export interface PullProgressView {
  phase: 'designs' | 'own-designs' | 'images' | 'done';
  done: number;
  total: number | null;
}

export interface SettingsView {
  /** The service's API address ({base_url}), or null when none is chosen. */
  serviceUrl: string | null;
  /** Where the browser signs in and design pages open ({auth_url}): the person's, else derived from serviceUrl. */
  webUrl: string | null;
  /** Whether webUrl is derived from the service address (the person set none). */
  webUrlDerived: boolean;
  cacheLimitBytes: number;
  cacheBytes: number;
  cacheDesigns: number;
  /** When the catalogue was last pulled whole (how old the cache is). */
  catalogueCheckedAt: IsoTime | null;
  catalogueRefreshMinutes: number;
  /** Files added to a published design wait as "ready to publish" until the person sends them. */
  reviewBeforePublishing: boolean;
  startAtLogin: StartAtLoginView;
  /** The upload limit in KB/s (1 KB = 1,024 bytes), shared by every upload; 0: none. */
  maxUploadKBps: number;
  /** The download limit in KB/s, shared by every download; 0: none. */
  maxDownloadKBps: number;
  proxy: ProxyView;
  /** The language chosen ('system': the system's, the default; docs/translations.md). */
  language: LanguageSetting;
  /** Whether the pseudo-locale may be chosen (developers: the engine runs with DESIGN_SYNC_PSEUDO_LOCALE=1). */
  pseudoLocaleOffered: boolean;
}

/** The proxy setting and the proxy in use; never the password (write-only), only whether one is kept. */
export interface ProxyView {
  mode: 'system' | 'none' | 'manual';
  /** The manual proxy ('' and null when none was given). */
  host: string;
  port: number | null;
  username: string;
  passwordSet: boolean;
  /** The proxy the service's requests take now ("proxy.example:3128"), or null when they go direct. */
  inUse: string | null;
  /** Where that proxy came from, in words ("Settings → Proxy", "the environment (HTTPS_PROXY …)", "the system's proxy settings"). */
  inUseFrom: string | null;
  /** Why the setting cannot be used as it is, in words, or null. */
  problem: string | null;
}

/** Whether the desktop app starts (in the tray, no window) when the person logs in. */
export interface StartAtLoginView {
  /** Whether this window's host can register the app at login: the desktop app can, `design-sync ui` (a browser) cannot. */
  available: boolean;
  /** Whether the system starts the app at login now (false where it is not available). */
  on: boolean;
  /** Whether the person answered the one-time question (asked once a sync folder is chosen; never again). */
  asked: boolean;
  /** Why it is not available here, in words; null where it is. */
  unavailableReason: string | null;
}

/** What helps when something goes wrong: where the engine log is, and what the engine had to tell (once). */
export interface DiagnosticsView {
  /** The engine log's file (`<profile>/logs/engine.log`), or null when the engine logs nowhere. */
  logFile: string | null;
  /** Why the log cannot be written, or null. */
  logProblem: string | null;
  /** Things the person should know about this start of the engine (the offline cache was damaged and rebuilt…). */
  notices: string[];
}

export interface ConnectivityView {
  online: boolean;
  /** Why offline, in words (connectivityWords(): no raw codes; the detail is in the engine log). */
  reason: string | null;
  since: IsoTime;
}

export type FieldErrorsView = FieldErrors;

/** The bundled local service with sample designs, when the profile tries design-sync on it (service.trySample). */
export interface SampleServiceView {
  /** Whether the profile uses it (its address is the profile's service). */
  inUse: boolean;
  /** Its address while it runs, else null. */
  serviceUrl: string | null;
  starting: boolean;
  /** Why it could not start, or stopped, in English; null when nothing went wrong. */
  problem: string | null;
  /** Its facts, which the window words in the person's language; null or absent: `problem` as it is. */
  problemWords?: EngineWords | null;
  /** How to sign in on it (the sample designs' owner). */
  signIn: { screenName: string; password: string };
}

/**
 * Where a design kept offline is: all its files here ('ready'), being downloaded ('downloading'), waiting its turn
 * ('queued'), waiting for the service ('waiting'), or stopped by a problem ('problem', with its words).
 */
export type KeptState = 'ready' | 'downloading' | 'queued' | 'waiting' | 'problem';

export interface KeptDesignView {
  designId: number;
  /** Null when the cache no longer has the design. */
  name: string | null;
  keptAt: IsoTime;
  state: KeptState;
  filesTotal: number;
  filesHere: number;
  bytesHere: number;
  /** The file being downloaded, with its bytes so far and its size when known. */
  current: { name: string; bytesDone: number; bytesTotal: number | null } | null;
  /** What stopped it, in English; `problemWords` its facts, which the window words (null or absent: `problem` as it is). */
  problem: string | null;
  problemWords?: EngineWords | null;
  checkedAt: IsoTime | null;
}

export interface KeptOfflineView {
  designs: KeptDesignView[];
  /** Bytes on disk the kept designs' files take (each stored file once). */
  bytes: number;
}
