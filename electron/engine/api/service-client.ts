import type { CreatedDocument, Design, Document, Image, OwnUser, PublicUser, UserDesign } from '../../../shared';
import { classifyResponse } from './classify-response';
import { multipartBody, type UploadFile, type UploadProgress } from './multipart-upload';
import { networkProblem } from './network-problem';
import { ServiceError } from './service-error';
import { extractList, pageInfo } from './tolerant-readers';
import { readJson, Transport, type QueryValue, type RawResponse, type TransportOptions } from './transport';

export interface Paging {
  page?: number;
  limit?: number;
}

export interface Page<T> {
  items: T[];
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

const MAX_PAGES = 1_000_000;

/** A typed client for every endpoint of the service's v1 interface. Problems arrive as ServiceError. */
export class ServiceClient {
  readonly transport: Transport;

  constructor(options: TransportOptions) {
    this.transport = new Transport(options);
  }

  private async getJson(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<{ body: unknown; raw: RawResponse }> {
    const raw = await this.transport.send({ method: 'GET', path, query, signal });
    return { body: await readJson(raw, 'GET', path), raw };
  }

  private async getPage<T>(path: string, paging: Paging & { q?: string }, signal?: AbortSignal): Promise<Page<T>> {
    const page = paging.page ?? 1;
    const { body, raw } = await this.getJson(path, { page, limit: paging.limit, q: paging.q }, signal);
    const items = extractList(body) as T[];
    const info = pageInfo(raw.headers);
    // Without paging headers, a short or empty page is the last one.
    const nextPage = info.nextPage !== undefined
      ? info.nextPage
      : items.length === 0 || (paging.limit !== undefined && items.length < paging.limit) ? null : page + 1;
    return { items, page, nextPage, totalCount: info.totalCount };
  }

  /**
   * Every page of a listing, in order, until the service says there is no next page (or, without paging
   * headers, a page comes back short). Stops if the service hands back the same page again.
   */
  async *allPages<T extends { id?: unknown }>(path: string, options: { limit?: number; q?: string; signal?: AbortSignal } = {}): AsyncGenerator<Page<T>> {
    let page: number | null = 1;
    let previousFirstId: unknown = undefined;
    for (let count = 0; page !== null && count < MAX_PAGES; count++) {
      const result: Page<T> = await this.getPage<T>(path, { page, limit: options.limit, q: options.q }, options.signal);
      const firstId = result.items[0]?.id;
      if (count > 0 && firstId !== undefined && firstId === previousFirstId) return;
      previousFirstId = firstId;
      yield result;
      page = result.nextPage !== null && result.nextPage > page ? result.nextPage : null;
    }
  }

  /** A conditional GET of one resource: If-None-Match / If-Modified-Since from the validators given. */
  async getConditional<T>(path: string, validators: Validators = {}, signal?: AbortSignal): Promise<Conditional<T>> {
    const headers: Record<string, string> = {};
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    const raw = await this.transport.send({ method: 'GET', path, headers, accept: [304], signal });
    if (raw.status === 304) return { notModified: true };
    return {
      notModified: false,
      value: (await readJson(raw, 'GET', path)) as T,
      etag: raw.headers.get('etag'),
      lastModified: raw.headers.get('last-modified'),
    };
  }

  // Designs (spec §4.1)

  listDesigns(paging: Paging = {}, signal?: AbortSignal) {
    return this.getPage<Design>('/v1/designs', paging, signal);
  }

  /** The search answer's shape is not shown by the spec: a bare array and an object holding one are both read. */
  searchDesigns(q: string, paging: Paging = {}, signal?: AbortSignal) {
    return this.getPage<Design>('/v1/designs/search', { ...paging, q }, signal);
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
    const body = await readJson(raw, 'POST', path);
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

  publishDesign(idOrSlug: number | string, signal?: AbortSignal): Promise<void> {
    return this.updateDesign(idOrSlug, { state: 'published' }, signal);
  }

  /** Deleting what is already gone is success: a retried DELETE whose first answer was lost sees 404. */
  async deleteDesign(idOrSlug: number | string, signal?: AbortSignal): Promise<void> {
    await this.deleteTolerant(`/v1/designs/${encodeURIComponent(String(idOrSlug))}`, signal);
  }

  // Images (spec §4.2) and documents (spec §4.3)

  async listImages(designId: number | string, signal?: AbortSignal): Promise<Image[]> {
    return extractList((await this.getJson(`/v1/designs/${designId}/images`, undefined, signal)).body) as Image[];
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

  async listDocuments(designId: number | string, signal?: AbortSignal): Promise<Document[]> {
    return extractList((await this.getJson(`/v1/designs/${designId}/documents`, undefined, signal)).body) as Document[];
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
    return this.getPage<PublicUser>('/v1/users', paging, signal);
  }

  async getUser(idOrSlug: number | string, signal?: AbortSignal): Promise<PublicUser> {
    return (await this.getJson(`/v1/users/${encodeURIComponent(String(idOrSlug))}`, undefined, signal)).body as PublicUser;
  }

  listUserDesigns(idOrSlug: number | string, paging: Paging = {}, signal?: AbortSignal) {
    return this.getPage<UserDesign>(`/v1/users/${encodeURIComponent(String(idOrSlug))}/designs`, paging, signal);
  }

  listFollowedUsers(idOrSlug: number | string, paging: Paging = {}, signal?: AbortSignal) {
    return this.getPage<PublicUser>(`/v1/users/${encodeURIComponent(String(idOrSlug))}/users`, paging, signal);
  }

  async getFollowedUser(userIdOrSlug: number | string, idOrSlug: number | string, signal?: AbortSignal): Promise<PublicUser> {
    const path = `/v1/users/${encodeURIComponent(String(userIdOrSlug))}/users/${encodeURIComponent(String(idOrSlug))}`;
    return (await this.getJson(path, undefined, signal)).body as PublicUser;
  }

  listFollowedUserDesigns(userIdOrSlug: number | string, idOrSlug: number | string, paging: Paging = {}, signal?: AbortSignal) {
    const path = `/v1/users/${encodeURIComponent(String(userIdOrSlug))}/users/${encodeURIComponent(String(idOrSlug))}/designs`;
    return this.getPage<UserDesign>(path, paging, signal);
  }

  async whoami(signal?: AbortSignal): Promise<OwnUser> {
    return (await this.getJson('/v1/user/whoami', undefined, signal)).body as OwnUser;
  }

  /** PUT /api/users/whoami: body and answer not shown by the spec; sends a `user` hash, reads a user back if one comes. */
  async updateProfile(fields: Record<string, string | boolean | null>, signal?: AbortSignal): Promise<OwnUser | null> {
    const raw = await this.transport.send({ method: 'PUT', path: '/api/users/whoami', json: { user: fields }, signal });
    const body = await readJson(raw, 'PUT', '/api/users/whoami');
    return body && typeof body === 'object' ? (body as OwnUser) : null;
  }

  // Files

  /**
   * Downloads a url the service gave (a path on the service, or an absolute http(s) address) as a stream.
   * The token goes only to the service's own origin.
   */
  async download(url: string, signal?: AbortSignal): Promise<Response> {
    const base = new URL(this.transport.options.baseUrl);
    const target = new URL(url, base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new ServiceError({ kind: 'bad-request', status: 0, message: `Not a web address: ${url}` }, 'GET', url);
    }
    if (target.origin === base.origin) {
      const raw = await this.transport.send({ method: 'GET', path: target.pathname, query: Object.fromEntries(target.searchParams), signal, timeoutMs: 0, headers: { accept: '*/*' } });
      return raw.response;
    }
    let response: Response;
    try {
      response = await fetch(target, { signal });
    } catch (error) {
      throw new ServiceError(networkProblem(error, false, signal?.aborted ? 'cancelled' : null), 'GET', target.pathname);
    }
    if (!response.ok) throw new ServiceError(classifyResponse(response.status, response.headers, undefined), 'GET', target.pathname);
    return response;
  }

  /**
   * The size in bytes of a file the service gave the address of, from a HEAD request (nothing downloaded); null when
   * the answer does not say. The token goes only to the service's own origin.
   */
  async sizeOf(url: string, signal?: AbortSignal): Promise<number | null> {
    const base = new URL(this.transport.options.baseUrl);
    const target = new URL(url, base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
    let length: string | null;
    if (target.origin === base.origin) {
      const raw = await this.transport.send({ method: 'HEAD', path: target.pathname, query: Object.fromEntries(target.searchParams), signal, headers: { accept: '*/*' } });
      length = raw.headers.get('content-length');
    } else {
      let response: Response;
      try {
        response = await fetch(target, { method: 'HEAD', signal });
      } catch (error) {
        throw new ServiceError(networkProblem(error, false, signal?.aborted ? 'cancelled' : null), 'HEAD', target.pathname);
      }
      if (!response.ok) throw new ServiceError(classifyResponse(response.status, response.headers, undefined), 'HEAD', target.pathname);
      length = response.headers.get('content-length');
    }
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
    const raw = await this.transport.send({
      method, path, signal: options.signal, timeoutSignal: stall.signal, timeoutMs: 0, idempotent: false,
      // Made anew for each attempt; a retry happens only when the service certainly got nothing (or said 429).
      stream: () => multipartBody(hash, { name: fields.name, description: fields.description }, file, {
        onProgress: options.onProgress,
        stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
        onStall: () => stall.abort(new Error('upload stalled')),
      }),
    });
    return readJson(raw, method, path);
  }
}
