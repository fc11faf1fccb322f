import type { CreatedDocument, Design, Document, Image, OwnUser, PublicUser, UserDesign } from '../../../shared';
import { UnreadableAnswer } from './answer-body';
import { listKindOf, readListAnswer, readUserAnswer, type ListKind } from './list-answers';
import { pacedBody, throttled } from './bandwidth';
import { multipartBody, type UploadFile, type UploadProgress } from './multipart-upload';
import { PagesAhead, pagesNamedByHead } from './page-ahead';
import { publishTolerantly, type PublishForm, type PublishOutcome } from './publish-forms';
import { ServiceError } from './service-error';
import { pageInfo } from './tolerant-readers';
import { Transport, type Answer, type ChunkedAnswer, type QueryValue, type RequestSpec, type TransportOptions } from './transport';

export interface Paging {
  page?: number;
  limit?: number;
}

export interface Page<T> {
  items: T[];
  /**
   * A list of designs sent as a bare array: the answer's text, holding each item's JSON as the service wrote it, for
   * a cache that keeps designs whole (cut from it where they are written: cheaper than writing the items out again).
   */
  itemsText?: string;
  page: number;
  /** The next page, or null when this is the last one. */
  nextPage: number | null;
  totalCount?: number;
}

/** Validators of an earlier answer, for a conditional GET. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export type Conditional<T> = { notModified: true } | { notModified: false; value: T; etag: string | null; lastModified: string | null };

export interface DesignFields {
  name?: string;
  excerpt?: string;
  license?: string;
  description?: string;
  primary_image_id?: number | null;
  state?: string;
}

export interface FileFields {
  name?: string;
  description?: string;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Abort when the service takes no bytes for this long (default 60 s). */
  stallTimeoutMs?: number;
}

export interface WalkOptions {
  limit?: number;
  q?: string;
  signal?: AbortSignal;
  /** What the list holds (checked item by item); by default told from the path. */
  kind?: ListKind;
  /** A walk that is still told there is another page after this many fails (default 100,000). */
  maxPages?: number;
}

/** After this many pages a walk stops: at 100 a page, ten million items. A service that never ends is broken. */
export const MAX_PAGES = 100_000;

/** How long, after sending an upload's last byte, the service may take to answer (it makes renditions). */
const UPLOAD_ANSWER_TIMEOUT_MS = 5 * 60_000;

interface PageRequest {
  path: string;
  kind: ListKind;
  limit?: number;
  q?: string;
  /** Whether a full page without paging headers means there may be another (only when a limit was asked for). */
  guessNext: boolean;
}

function idsOf(items: unknown[]): string {
  return items.map((item) => String((item as { id?: unknown }).id)).join(',');
}

/** A typed client for every endpoint of the service's v1 interface. Problems arrive as ServiceError. */
export class ServiceClient {
  readonly transport: Transport;

  constructor(options: TransportOptions) {
    this.transport = new Transport(options);
  }

  private getJson(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal, onHead?: (headers: Headers) => void): Promise<Answer> {
    return this.transport.send({ method: 'GET', path, query, signal, onHead });
  }

  /** The service's answer was not understood: its fault, and asking again will not help. */
  private unreadable(message: string, status: number, path: string, method = 'GET'): ServiceError {
    return new ServiceError({ kind: 'server-error', status, message }, method, path, { repeatable: false });
  }

  /** One page of a list answer, its items checked (list-answers.ts) and its paging read from the headers. */
  private pageOf<T>(answer: Answer, request: PageRequest, page: number): Page<T> {
    const where = `GET ${request.path}${page > 1 || request.limit !== undefined ? ` (page ${page})` : ''}`;
    let items: T[];
    try {
      items = readListAnswer(answer.body, request.kind, where) as T[];
    } catch (error) {
      if (error instanceof UnreadableAnswer) throw this.unreadable(error.message, answer.status, request.path);
      throw error;
    }
    const info = pageInfo(answer.headers);
    // Without paging headers, a short or empty page is the last one.
    let nextPage = info.nextPage !== undefined
      ? info.nextPage
      : !request.guessNext || items.length === 0 || (request.limit !== undefined && items.length < request.limit) ? null : page + 1;
    if (nextPage !== null && info.lastPage !== undefined && page >= info.lastPage) nextPage = null;
    const itemsText = request.kind === 'designs' && items === answer.body && answer.text ? answer.text : undefined;
    return { items, ...(itemsText !== undefined ? { itemsText } : {}), page, nextPage, totalCount: info.totalCount };
  }

  /** One page; `onFollowingNamed` is told the pages following it as soon as this one's head names them (see PagesAhead). */
  private async getPage<T>(
    request: PageRequest, page: number, signal?: AbortSignal, onFollowingNamed?: (following: readonly number[]) => void,
  ): Promise<Page<T>> {
    const onHead = onFollowingNamed && ((headers: Headers) => {
      const following = pagesNamedByHead(headers, page, request.limit);
      if (following.length > 0) onFollowingNamed(following);
    });
    const answer = await this.getJson(request.path, { page, limit: request.limit, q: request.q }, signal, onHead);
    return this.pageOf<T>(answer, request, page);
  }

  /**
   * The pages of a list from its first one on, in order, until the service says there is no next page (or, without
   * paging headers, a page comes back short). A walk stops at an empty page whatever the headers say, and when the
   * service hands back the same page again (a service that does not page sent everything the first time) — unless
   * it said it holds more than that: then it is not understood. So is a walk still told of another page after
   * `maxPages`.
   */
  private async *pagesFrom<T>(
    request: PageRequest, first: Page<T>, options: WalkOptions,
    getPage: (page: number) => Promise<Page<T>> = (page) => this.getPage<T>(request, page, options.signal),
  ): AsyncGenerator<Page<T>> {
    const maxPages = options.maxPages ?? MAX_PAGES;
    const totalCount = first.totalCount;
    let current = first;
    let previousIds = idsOf(first.items);
    let read = first.items.length;
    for (let count = 1; ; count++) {
      const empty = current.items.length === 0;
      const next = empty || current.nextPage === null || current.nextPage <= current.page ? null : current.nextPage;
      yield next === current.nextPage ? current : { ...current, nextPage: next };
      if (next === null) return;
      if (count >= maxPages) {
        throw this.unreadable(`The service's answer to GET ${request.path} was not understood: it still said there was another page after ${maxPages.toLocaleString('en-US')} pages; try again later, or tell the service's maintainers.`, 200, request.path);
      }
      const page = await getPage(next);
      const ids = idsOf(page.items);
      if (page.items.length > 0 && ids === previousIds) {
        if (totalCount !== undefined && read < totalCount) {
          throw this.unreadable(
            `The service's answer to GET ${request.path} (page ${next}) was not understood: it sent page ${current.page} again, while it says it holds ${totalCount.toLocaleString('en-US')} items and ${read.toLocaleString('en-US')} were read; try again later, or tell the service's maintainers.`,
            200, request.path,
          );
        }
        return;
      }
      previousIds = ids;
      read += page.items.length;
      current = page;
    }
  }

  /** Every page of a list, following paging headers or a Link header, from the answer to its first request. */
  private async collect<T>(answer: Answer, request: PageRequest, signal?: AbortSignal): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pagesFrom<T>(request, this.pageOf<T>(answer, request, 1), { signal })) items.push(...page.items);
    return items;
  }

  /**
   * Every page of a listing, in order, until the service says there is no next page (or, without paging headers, a
   * page comes back short): see pagesFrom. Each page's items are checked (list-answers.ts): a page that holds no list,
   * or items that are not objects with an integer id, is a 'server-error' ServiceError that says which part. A page
   * the paging headers name is asked for as soon as the head of the page before it came, and the one after it when
   * that head counts the pages (PagesAhead).
   */
  async *allPages<T extends { id?: unknown }>(path: string, options: WalkOptions = {}): AsyncGenerator<Page<T>> {
    const request: PageRequest = { path, kind: options.kind ?? listKindOf(path), limit: options.limit, q: options.q, guessNext: true };
    const pages = new PagesAhead<Page<T>>((page, signal, onFollowingNamed) => this.getPage<T>(request, page, signal, onFollowingNamed),
      options.maxPages ?? MAX_PAGES, options.signal);
    try {
      const first = await pages.get(1);
      yield* this.pagesFrom<T>(request, first, options, (page) => pages.get(page));
    } finally {
      pages.stop();
    }
  }

  /**
   * A conditional GET of a list (a design's images or documents): not modified, or every page of it (the first asked
   * as it always was, with no paging parameters; later ones as the paging headers or a Link header say).
   */
  async getConditionalList(path: string, validators: Validators = {}, signal?: AbortSignal): Promise<Conditional<unknown[]>> {
    const headers: Record<string, string> = {};
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    const answer = await this.transport.send({ method: 'GET', path, headers, accept: [304], signal });
    if (answer.status === 304) return { notModified: true };
    const value = await this.collect<unknown>(answer, { path, kind: listKindOf(path), guessNext: false }, signal);
    return { notModified: false, value, etag: answer.headers.get('etag'), lastModified: answer.headers.get('last-modified') };
  }

  /** A conditional GET of one resource: If-None-Match / If-Modified-Since from the validators given. */
  async getConditional<T>(path: string, validators: Validators = {}, signal?: AbortSignal): Promise<Conditional<T>> {
    const headers: Record<string, string> = {};
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    const answer = await this.transport.send({ method: 'GET', path, headers, accept: [304], signal });
    if (answer.status === 304) return { notModified: true };
    return { notModified: false, value: answer.body as T, etag: answer.headers.get('etag'), lastModified: answer.headers.get('last-modified') };
  }

  // Designs (spec §4.1)

  /** One page of a listing (its items checked: see allPages). */
  private listPage<T>(path: string, paging: Paging & { q?: string }, signal?: AbortSignal): Promise<Page<T>> {
    return this.getPage<T>({ path, kind: listKindOf(path), limit: paging.limit, q: paging.q, guessNext: true }, paging.page ?? 1, signal);
  }

  listDesigns(paging: Paging = {}, signal?: AbortSignal) {
    return this.listPage<Design>('/v1/designs', paging, signal);
  }

  /** The search answer's shape is not shown by the spec: a bare array and an object holding one are both read. */
  searchDesigns(q: string, paging: Paging = {}, signal?: AbortSignal) {
    return this.listPage<Design>('/v1/designs/search', { ...paging, q }, signal);
  }

  async getDesign(idOrSlug: number | string, signal?: AbortSignal): Promise<Design> {
    return (await this.getJson(`/v1/designs/${encodeURIComponent(String(idOrSlug))}`, undefined, signal)).body as Design;
  }

  /**
   * Creates a design (it starts unpublished). The success body is not shown by the spec: a design in the
   * body is used; an empty body is followed by a read through Location when there is one.
   */
  async createDesign(fields: DesignFields, signal?: AbortSignal): Promise<Design> {
    const path = '/v1/designs';
    const raw = await this.transport.send({ method: 'POST', path, json: { design: fields }, signal });
    const body = raw.body;
    if (body && typeof body === 'object' && typeof (body as { id?: unknown }).id === 'number') return body as Design;
    const nested = body && typeof body === 'object' ? (body as { design?: unknown }).design : undefined;
    if (nested && typeof nested === 'object' && typeof (nested as { id?: unknown }).id === 'number') return nested as Design;
    const location = raw.headers.get('location');
    const id = location?.match(/\/v1\/designs\/([^/?#]+)/)?.[1];
    if (id) return this.getDesign(decodeURIComponent(id), signal);
    throw new ServiceError({ kind: 'server-error', status: raw.status, message: 'The service created a design but did not say which.' }, 'POST', path);
  }

  /** PATCH with the fields given; the success answer (204 or a body) is not needed. */
  async updateDesign(idOrSlug: number | string, fields: DesignFields, signal?: AbortSignal): Promise<void> {
    await this.transport.send({ method: 'PATCH', path: `/v1/designs/${encodeURIComponent(String(idOrSlug))}`, json: { design: fields }, idempotent: true, signal });
  }

  /** Publishes a design by whichever form the service accepts, confirmed by reading it back (publish-forms.ts). */
  publishDesign(idOrSlug: number | string, signal?: AbortSignal): Promise<PublishOutcome> {
    return publishTolerantly(this, idOrSlug, signal);
  }

  /** Asks once, in one form, without checking the outcome. */
  async publishDesignAs(form: PublishForm, idOrSlug: number | string, signal?: AbortSignal): Promise<void> {
    const path = `/v1/designs/${encodeURIComponent(String(idOrSlug))}`;
    if (form === 'state-field') return this.updateDesign(idOrSlug, { state: 'published' }, signal);
    await this.transport.send({ method: 'PUT', path: form === 'mark-as-publish' ? `${path}/mark_as/publish` : path, signal });
  }

  /** Deleting what is already gone is success: a retried DELETE whose first answer was lost sees 404. */
  async deleteDesign(idOrSlug: number | string, signal?: AbortSignal): Promise<void> {
    await this.deleteTolerant(`/v1/designs/${encodeURIComponent(String(idOrSlug))}`, signal);
  }

  // Images (spec §4.2) and documents (spec §4.3)

  /** Every image of a design: every page, when the service pages them (paging headers or a Link header). */
  async listImages(designId: number | string, signal?: AbortSignal): Promise<Image[]> {
    const path = `/v1/designs/${designId}/images`;
    return this.collect<Image>(await this.getJson(path, undefined, signal), { path, kind: 'images', guessNext: false }, signal);
  }

  async getImage(designId: number | string, imageId: number, signal?: AbortSignal): Promise<Image> {
    return (await this.getJson(`/v1/designs/${designId}/images/${imageId}`, undefined, signal)).body as Image;
  }

  async uploadImage(designId: number | string, file: UploadFile, fields: FileFields = {}, options: UploadOptions = {}): Promise<Image> {
    return (await this.upload('POST', `/v1/designs/${designId}/images`, 'image', fields, file, options)) as Image;
  }

  async updateImage(designId: number | string, imageId: number, fields: FileFields, file?: UploadFile, options: UploadOptions = {}): Promise<void> {
    await this.upload('PATCH', `/v1/designs/${designId}/images/${imageId}`, 'image', fields, file, options);
  }

  async deleteImage(designId: number | string, imageId: number, signal?: AbortSignal): Promise<void> {
    await this.deleteTolerant(`/v1/designs/${designId}/images/${imageId}`, signal);
  }

  /** Every document of a design: every page, when the service pages them (paging headers or a Link header). */
  async listDocuments(designId: number | string, signal?: AbortSignal): Promise<Document[]> {
    const path = `/v1/designs/${designId}/documents`;
    return this.collect<Document>(await this.getJson(path, undefined, signal), { path, kind: 'documents', guessNext: false }, signal);
  }

  async getDocument(designId: number | string, documentId: number, signal?: AbortSignal): Promise<Document> {
    return (await this.getJson(`/v1/designs/${designId}/documents/${documentId}`, undefined, signal)).body as Document;
  }

  async uploadDocument(designId: number | string, file: UploadFile, fields: FileFields = {}, options: UploadOptions = {}): Promise<CreatedDocument> {
    return (await this.upload('POST', `/v1/designs/${designId}/documents`, 'document', fields, file, options)) as CreatedDocument;
  }

  async updateDocument(designId: number | string, documentId: number, fields: FileFields, file?: UploadFile, options: UploadOptions = {}): Promise<void> {
    await this.upload('PATCH', `/v1/designs/${designId}/documents/${documentId}`, 'document', fields, file, options);
  }

  async deleteDocument(designId: number | string, documentId: number, signal?: AbortSignal): Promise<void> {
    await this.deleteTolerant(`/v1/designs/${designId}/documents/${documentId}`, signal);
  }

  // Users (spec §4.4)

  listUsers(paging: Paging = {}, signal?: AbortSignal) {
    return this.listPage<PublicUser>('/v1/users', paging, signal);
  }

  async getUser(idOrSlug: number | string, signal?: AbortSignal): Promise<PublicUser> {
    return (await this.getJson(`/v1/users/${encodeURIComponent(String(idOrSlug))}`, undefined, signal)).body as PublicUser;
  }

  listUserDesigns(idOrSlug: number | string, paging: Paging = {}, signal?: AbortSignal) {
    return this.listPage<UserDesign>(`/v1/users/${encodeURIComponent(String(idOrSlug))}/designs`, paging, signal);
  }

  listFollowedUsers(idOrSlug: number | string, paging: Paging = {}, signal?: AbortSignal) {
    return this.listPage<PublicUser>(`/v1/users/${encodeURIComponent(String(idOrSlug))}/users`, paging, signal);
  }

  async getFollowedUser(userIdOrSlug: number | string, idOrSlug: number | string, signal?: AbortSignal): Promise<PublicUser> {
    const path = `/v1/users/${encodeURIComponent(String(userIdOrSlug))}/users/${encodeURIComponent(String(idOrSlug))}`;
    return (await this.getJson(path, undefined, signal)).body as PublicUser;
  }

  listFollowedUserDesigns(userIdOrSlug: number | string, idOrSlug: number | string, paging: Paging = {}, signal?: AbortSignal) {
    const path = `/v1/users/${encodeURIComponent(String(userIdOrSlug))}/users/${encodeURIComponent(String(idOrSlug))}/designs`;
    return this.listPage<UserDesign>(path, paging, signal);
  }

  /** The signed-in user; an answer that is not an object with an integer id and a screen_name is not understood. */
  async whoami(signal?: AbortSignal): Promise<OwnUser> {
    const path = '/v1/user/whoami';
    const answer = await this.getJson(path, undefined, signal);
    try {
      return readUserAnswer(answer.body, `GET ${path}`) as unknown as OwnUser;
    } catch (error) {
      if (error instanceof UnreadableAnswer) throw this.unreadable(error.message, answer.status, path);
      throw error;
    }
  }

  /** PUT /api/users/whoami: body and answer not shown by the spec; sends a `user` hash, reads a user back if one comes. */
  async updateProfile(fields: Record<string, string | boolean | null>, signal?: AbortSignal): Promise<OwnUser | null> {
    const { body } = await this.transport.send({ method: 'PUT', path: '/api/users/whoami', json: { user: fields }, signal });
    return body && typeof body === 'object' ? (body as OwnUser) : null;
  }

  // Files

  /**
   * Downloads a url the service gave (a path on the service, or an absolute http(s) address) as a stream, watched by
   * the connect, first-byte and idle timeouts (no overall one: a file may be large). The token goes only to the
   * service's own origin; a file elsewhere may be redirected to any host.
   */
  async download(url: string, signal?: AbortSignal): Promise<Response> {
    const answer = await this.transport.open(this.downloadRequest(url, signal));
    const limit = this.transport.options.bandwidth?.download;
    const body = answer.response.body;
    if (!limit || !body) return answer.response;
    // Read within the download limit, shared by every download of the profile; a new limit applies to it at once.
    return new Response(pacedBody(body, limit, signal), { status: answer.status, headers: answer.headers });
  }

  /**
   * As `download`, with the body as the connection's chunks (Node buffers, no web stream between): what the file
   * cache reads into a file. Read within the download limit as `download` is; ending the iteration early closes the
   * answer.
   */
  async downloadChunks(url: string, signal?: AbortSignal): Promise<ChunkedAnswer> {
    const answer = await this.transport.openChunks(this.downloadRequest(url, signal));
    const limit = this.transport.options.bandwidth?.download;
    if (!limit || !answer.chunks) return answer;
    return { ...answer, chunks: throttled(answer.chunks, limit, signal) };
  }

  /** The GET of a url the service gave: the token only for the service's own origin. */
  private downloadRequest(url: string, signal: AbortSignal | undefined): RequestSpec {
    const base = new URL(this.transport.options.baseUrl);
    const target = new URL(url, base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new ServiceError({ kind: 'bad-request', status: 0, message: `Not a web address: ${url}` }, 'GET', url);
    }
    const headers = { accept: '*/*' };
    return target.origin === base.origin
      ? { method: 'GET', path: target.pathname, query: Object.fromEntries(target.searchParams), signal, headers }
      : { method: 'GET', path: target.pathname, url: target, signal, headers };
  }

  /**
   * The size in bytes of a file the service gave the address of, from a HEAD request (nothing downloaded); null when
   * the answer does not say. The token goes only to the service's own origin.
   */
  async sizeOf(url: string, signal?: AbortSignal): Promise<number | null> {
    const base = new URL(this.transport.options.baseUrl);
    const target = new URL(url, base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
    const headers = { accept: '*/*' };
    const answer = target.origin === base.origin
      ? await this.transport.send({ method: 'HEAD', path: target.pathname, query: Object.fromEntries(target.searchParams), signal, headers })
      : await this.transport.send({ method: 'HEAD', path: target.pathname, url: target, signal, headers });
    const length = answer.headers.get('content-length');
    const size = length === null ? NaN : Number(length);
    return Number.isSafeInteger(size) && size >= 0 ? size : null;
  }

  private async deleteTolerant(path: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.transport.send({ method: 'DELETE', path, signal });
    } catch (error) {
      if (error instanceof ServiceError && error.problem.kind === 'not-found') return;
      throw error;
    }
  }

  private async upload(
    method: 'POST' | 'PATCH', path: string, hash: 'image' | 'document', fields: FileFields, file: UploadFile | undefined, options: UploadOptions,
  ): Promise<unknown> {
    const stall = new AbortController();
    const answer = await this.transport.send({
      method, path, signal: options.signal, timeoutSignal: stall.signal, idempotent: false,
      // Sending is watched by the stall timer; then the service makes the renditions before it answers.
      timeouts: { firstByteMs: Math.max(this.transport.timeouts.firstByteMs, UPLOAD_ANSWER_TIMEOUT_MS), overallMs: 0 },
      // Made anew for each attempt; a retry happens only when the service certainly got nothing (or said 429).
      stream: () => multipartBody(hash, { name: fields.name, description: fields.description }, file, {
        onProgress: options.onProgress,
        stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
        onStall: () => stall.abort(new Error('upload stalled')),
        ...(this.transport.options.bandwidth ? { throttle: this.transport.options.bandwidth.upload } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    });
    return answer.body;
  }
}
