import { z } from 'zod';
import { LANGUAGE_SETTINGS } from '../i18n/locales';
import { LICENSE_CODES } from '../licenses/licenses';
import { QUEUE_STATES } from '../sync/sync-types';
import type { ContractRequestName } from './request-names';
import type {
  AccountView, AuthorPage, DesignDetail, DiagnosticsView, DroppedFileView, KeptOfflineView, ProposalModelView, LibraryPage, NeverSentView, OwnDesignView, PullView, QueueEntry, QueueView, SampleServiceView, SettingsView, SyncView,
} from './views';
import type { SlicersView, SlicerView } from './slicer-views';
import type { UpdatesView } from '../updates/updates-view';

const nothing = z.object({}).strict();
const id = z.number().int().positive();
const idOrSlug = z.union([id, z.string().trim().min(1).max(255)]);
const query = z.string().max(500);
const license = z.enum(LICENSE_CODES);
/** Types only: lengths and blanks are checked by shared/validation, so the messages are the service's own. */
const text = z.string().max(100_000);
const queueTarget = z.union([id, z.literal('all')]);

/**
 * Every request a window may make, with the schema of its input. The engine checks each input against its schema at
 * the boundary (whatever carries it: Electron IPC or the window host's WebSocket) and answers a 'validation' problem
 * naming the field when it does not fit, changing nothing.
 */
export const REQUEST_INPUTS = {
  /** Who is signed in, and where the token is kept. */
  'account.get': nothing,
  /** Starts the browser sign-in (the service's own page in the system browser); its end arrives as 'account.changed'. */
  'account.signIn': nothing,
  'account.cancelSignIn': nothing,
  'account.signOut': nothing,

  /** A page of cached designs for a query (offline full-text search), license filter and sort, with the total count. */
  'library.page': z.object({
    query: query.default(''),
    licenses: z.array(license).max(LICENSE_CODES.length).default([]),
    sort: z.enum(['newest', 'popular', 'name', 'updated']).default('newest'),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(200).default(60),
    /** Only the designs kept offline. */
    keptOnly: z.boolean().default(false),
  }).strict(),
  /**
   * Every cached design matching counted, for a page whose total was a lower bound (its count stopped early). A newer
   * count, or a page of another filter, stops it: it ends with a 'cancelled' problem.
   */
  'library.count': z.object({ query: query.default(''), licenses: z.array(license).max(LICENSE_CODES.length).default([]) }).strict(),
  /**
   * How many cached designs match the query, per license (the filter's counts). With `upTo`, only the query's newest
   * upTo + 1 matches are counted, and `lowerBound` says whether there were more (then ask again without it).
   */
  'library.licenseCounts': z.object({ query: query.default(''), upTo: z.number().int().min(1).max(1_000_000).optional() }).strict(),
  /** Asks the service's search (when online) and merges what it finds into the cache; then ask 'library.page' again. */
  'library.searchService': z.object({ query: query.trim().min(1) }).strict(),

  /** One design in full: images, documents, author, attribution, its page's address, what is cached. */
  'design.get': z.object({ id: idOrSlug }).strict(),
  /** Opens the design's page on the service in the person's browser (rule 1: the page, never its 3D files). */
  'design.openPage': z.object({ id: idOrSlug }).strict(),
  /**
   * "Open in your slicer": a model file (fetched into the file cache first when it holds none) copied under its own
   * name and opened with `slicer` (an id from 'design.slicers'), else with the one remembered for its type; the
   * choice is remembered. With the system's default app ('system') the engine answers the copy's path and the
   * Electron shell opens it (a window never sees the path); a browser page downloads the file instead.
   */
  'design.openModelFile': z.object({ documentId: id, slicer: z.string().trim().min(1).max(4096).optional() }).strict(),
  /**
   * The slicers found installed that open this document's type (or all of them without one), the system's default
   * app last, and which one opens it now (the remembered choice, else the first found).
   */
  'design.slicers': z.object({ documentId: id.optional() }).strict(),
  /**
   * The window could not make a picture of the design from this model (`reason`, in words): remembered for that
   * version of the model and said once in the engine log, so it is not tried again until the model changes.
   */
  'design.thumbnailFailed': z.object({ designId: id, documentId: id, reason: z.string().trim().min(1).max(500) }).strict(),
  /**
   * Rule 4, on the person's confirmation only: the picture made from the design's model becomes an image of the
   * (own) design: put in its folder in the sync folder, uploaded by the queue like any image (the first image is
   * the cover of a design that has none).
   */
  'design.useGeneratedCover': z.object({ id }).strict(),
  /**
   * Keeps designs offline: all their images and documents downloaded and never evicted (a design the cache lacks is
   * read from the service first). Answers once they are recorded; their downloads go on and are told as
   * 'offline.progress'.
   */
  'offline.keep': z.object({ designs: z.array(idOrSlug).min(1).max(500) }).strict(),
  /** No longer kept offline: their files stay in the cache, evictable as any other. */
  'offline.release': z.object({ designs: z.array(id).min(1).max(500) }).strict(),
  /** The designs kept offline, where each is, and the space they take. */
  'offline.list': nothing,
  /** An author: their public profile and designs (users endpoints), or what the cache knows offline. */
  'author.get': z.object({ id: idOrSlug }).strict(),

  /** The signed-in user's designs, drafts included, each with its sync state. */
  'own.list': nothing,
  /** A new design starts unpublished (a draft). */
  'own.create': z.object({ name: text, excerpt: text, license: license.optional(), description: text.optional() }).strict(),
  'own.update': z.object({
    id, name: text.optional(), excerpt: text.optional(), license: license.optional(), description: text.optional(), primaryImageId: id.nullable().optional(),
  }).strict(),
  /** Publishes a draft: only on the person's explicit request (rule 4). */
  'own.publish': z.object({ id }).strict(),
  'own.delete': z.object({ id, confirm: z.literal(true, { error: 'must be true: deleting a design needs the person\'s confirmation' }) }).strict(),

  'sync.status': nothing,
  /** Makes a folder the profile's sync folder (made when missing). */
  'sync.chooseFolder': z.object({ path: z.string().trim().min(1).max(4096) }).strict(),
  /** Starts syncing in the background (the folder watched, the queue sent). */
  'sync.start': nothing,
  'sync.stop': nothing,
  /** A full pass now: the service's changes into the folder and the folder's changes into the queue ("Sync now"). */
  'sync.now': nothing,
  /** Rule 5: the person confirms they upload only what they have the right to publish, under the content policy. */
  'sync.acceptContentPolicy': z.object({ accept: z.literal(true, { error: 'must be true: only the person can accept the content policy' }) }).strict(),
  /** What is never sent: the sync folder's ignore file, the built-in list, and what the scans held back. */
  'sync.neverSent': nothing,
  /** Replaces the sync folder's ignore file (gitignore syntax; an empty text removes it); a full scan follows. */
  'sync.saveIgnoreFile': z.object({ text: z.string().max(64 * 1024, { error: 'must be at most 64 KB of patterns' }) }).strict(),

  'queue.list': z.object({ states: z.array(z.enum(QUEUE_STATES)).min(1).optional(), limit: z.number().int().min(1).max(1000).default(200) }).strict(),
  'queue.retry': z.object({ target: queueTarget }).strict(),
  'queue.cancel': z.object({ target: queueTarget }).strict(),
  /**
   * Pauses one item, or all uploads: until resumed, or (`for`, all only) for an hour or until tomorrow (the next 08:00,
   * local time), after which they resume by themselves.
   */
  'queue.pause': z.object({ target: queueTarget, for: z.enum(['hour', 'tomorrow']).optional() }).strict()
    .refine((input) => input.for === undefined || input.target === 'all', { message: 'only a pause of all uploads can end by itself', path: ['for'] }),
  'queue.resume': z.object({ target: queueTarget }).strict(),
  'queue.confirmDelete': z.object({ id }).strict(),
  /** Sends files that wait as ready to publish (one, or all of them): the person's go-ahead (rule 4). */
  'queue.sendReady': z.object({ target: queueTarget }).strict(),
  /**
   * A file changed both here and on the service: 'both' uploads the person's copy as a new file beside the service's
   * version; 'service' keeps only the service's version and moves the copy to the trash (where it can be got back).
   */
  'queue.resolveConflict': z.object({ id, keep: z.enum(['both', 'service']) }).strict(),
  /** The model a folder proposed as a new design holds (its picture is drawn from it); null when it holds none. */
  'queue.proposalModel': z.object({ id }).strict(),
  /** Creates the design proposed for a new folder, with its required fields; a draft unless `publish`. */
  'queue.confirmDesign': z.object({ id, name: text, excerpt: text, license, publish: z.boolean().default(false) }).strict(),

  /** Refreshes the catalogue from the service now (otherwise it is refreshed on its schedule). */
  'catalogue.pull': nothing,

  'settings.get': nothing,
  'settings.update': z.object({
    serviceUrl: z.string().trim().min(1).max(2048).optional(),
    /** The service's web address (sign-in and design pages); '' goes back to the one derived from serviceUrl. */
    webUrl: z.string().trim().max(2048).optional(),
    cacheLimitMb: z.number().int().min(50).max(1_000_000).optional(),
    catalogueRefreshMinutes: z.number().int().min(5).max(7 * 24 * 60).optional(),
    /** Files added to a published design wait as "ready to publish" until sent (off by default). */
    reviewBeforePublishing: z.boolean().optional(),
    /** The desktop app starts, in the tray, at login (answers the one-time question too); refused where the host cannot. */
    startAtLogin: z.boolean().optional(),
    /** The one-time question was answered without turning it on ("Not now"): it is not asked again. */
    startAtLoginAsked: z.literal(true).optional(),
    /** Upload and download limits in KB/s (1 KB = 1,024 bytes), shared by all transfers; 0: no limit. Applied at once. */
    maxUploadKBps: z.number().int().min(0).max(10_000_000).optional(),
    maxDownloadKBps: z.number().int().min(0).max(10_000_000).optional(),
    /** The language ('system': the system's); the pseudo-locale only where it is offered (SettingsView.pseudoLocaleOffered). */
    language: z.enum(LANGUAGE_SETTINGS).optional(),
    /**
     * The proxy: 'system' (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, else the system's), 'none', or 'manual' with host and
     * port, and a user name and password when the proxy asks for them. The password is write-only ('' removes it).
     */
    proxy: z.object({
      mode: z.enum(['system', 'none', 'manual']).optional(),
      host: z.string().trim().max(253).optional(),
      port: z.number().int().min(1).max(65535).optional(),
      username: z.string().max(256).optional(),
      password: z.string().max(1024).optional(),
    }).strict().optional(),
  }).strict(),

  /** Where the engine log is (to attach to a bug report), and the engine's notices (a rebuilt cache). */
  'diagnostics.get': nothing,

  /**
   * The desktop app's own updates (answered by its main process; a window served by `design-sync ui` has none and is told
   * why): the state, checking now, and restarting into a downloaded update (once no file is being sent).
   */
  'updates.get': nothing,
  'updates.check': nothing,
  'updates.restart': nothing,

  /**
   * Tries design-sync on the bundled local service with sample designs: starts it for this profile (its data in the
   * profile) and makes it the profile's service. Answers once it runs, or with a problem saying why it cannot.
   */
  'service.trySample': nothing,
  /** The sample service's state (whether the profile uses it, its address, why it could not start). */
  'service.sample': nothing,
} as const;

export type RequestName = keyof typeof REQUEST_INPUTS;
export const REQUEST_NAMES = Object.keys(REQUEST_INPUTS) as RequestName[];

/** What each request answers when it succeeds. */
export interface RequestResults {
  'account.get': AccountView;
  'account.signIn': { authorizationUrl: string };
  'account.cancelSignIn': AccountView;
  'account.signOut': AccountView;
  'library.page': LibraryPage;
  'library.count': { total: number };
  'library.licenseCounts': { counts: Record<(typeof LICENSE_CODES)[number], number>; total: number; lowerBound?: boolean };
  'library.searchService': { found: number; merged: number };
  'design.get': DesignDetail;
  'design.openPage': { url: string; opened: boolean };
  'design.openModelFile': { opened: boolean; path: string | null; slicer: SlicerView };
  'design.slicers': SlicersView;
  'design.thumbnailFailed': { remembered: boolean };
  'design.useGeneratedCover': DroppedFileView;
  'queue.proposalModel': ProposalModelView | null;
  'offline.keep': KeptOfflineView;
  'offline.release': KeptOfflineView;
  'offline.list': KeptOfflineView;
  'author.get': AuthorPage;
  'own.list': OwnDesignView[];
  'own.create': OwnDesignView;
  'own.update': OwnDesignView;
  'own.publish': OwnDesignView;
  'own.delete': { id: number };
  'sync.status': SyncView;
  'sync.chooseFolder': SyncView;
  'sync.start': SyncView;
  'sync.stop': SyncView;
  'sync.now': SyncView;
  'sync.acceptContentPolicy': SyncView;
  'sync.neverSent': NeverSentView;
  'sync.saveIgnoreFile': NeverSentView;
  'queue.list': QueueView;
  'queue.retry': { changed: number };
  'queue.cancel': { changed: number };
  'queue.pause': { changed: number };
  'queue.resume': { changed: number };
  'queue.confirmDelete': QueueEntry;
  'queue.sendReady': { changed: number };
  'queue.confirmDesign': QueueEntry;
  'queue.resolveConflict': QueueEntry;
  'catalogue.pull': PullView;
  'settings.get': SettingsView;
  'settings.update': SettingsView;
  'diagnostics.get': DiagnosticsView;
  'updates.get': UpdatesView;
  'updates.check': UpdatesView;
  'updates.restart': UpdatesView;
  'service.trySample': SampleServiceView;
  'service.sample': SampleServiceView;
}

/** One map of request name → input (as a window writes it) and result. */
export type Requests = { [K in RequestName]: { input: z.input<(typeof REQUEST_INPUTS)[K]>; parsed: z.output<(typeof REQUEST_INPUTS)[K]>; result: RequestResults[K] } };
export type RequestInput<K extends RequestName> = Requests[K]['input'];
export type ParsedInput<K extends RequestName> = Requests[K]['parsed'];
export type RequestResult<K extends RequestName> = Requests[K]['result'];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(REQUEST_INPUTS, name);
}

/** The names-only list (for the preload) and the schemas name the same requests: a compile error otherwise. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesAgree: Same<ContractRequestName, RequestName> = true;
void namesAgree;
