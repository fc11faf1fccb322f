import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';

/**
 * A replay of the live service's recorded answers (test/fixtures/recorded/, see its README): the catalogue
 * `GET /v1/designs` walks the recorded listings page by page (then an empty page whose headers still promise
 * more, as page 6 of 572 would), `GET /v1/designs/:id` answers with the recorded single read or the design as
 * listed. File addresses in the bodies point at a second server (the storage bucket), which answers every file
 * with one small PNG and records what it was asked, headers included.
 *
 * Not in the recordings, so made up here and kept apart: who the token belongs to (the live API answered public
 * reads with any token), an empty list of that user's designs, and each design's image list, derived from its
 * recorded `primary_image` (empty when it has none).
 */

const FIXTURES = join(import.meta.dirname, '../fixtures');
const RECORDED_BUCKET = 'https://s3-eu-west-1.amazonaws.com/';

interface Interaction {
  cassette: string;
  uri: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type RecordedListing = 'all' | 'page_5' | 'limit';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface RecordedService {
  url: string;
  storageUrl: string;
  /** Every request the service got. */
  requests: ReceivedRequest[];
  /** Every request the storage host got. */
  storageRequests: ReceivedRequest[];
  /** Every distinct design the served listings hold, as recorded (the later listing's copy when two hold one). */
  designs(): Map<number, Record<string, unknown>>;
  stop(): Promise<void>;
}

export const MADE_UP_USER = { id: 999_999, screen_name: 'replay visitor' };

const interactions = (JSON.parse(readFileSync(join(FIXTURES, 'recorded/youmagine-designs.json'), 'utf8')) as { interactions: Interaction[] }).interactions;

const listing = (name: RecordedListing) => interactions.find((i) => i.cassette.endsWith(`youmagine_designs_${name}.yml`))!;
const singleRead = (id: number) => interactions.find((i) => new URL(i.uri).pathname === `/v1/designs/${id}`);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => {
  server.close(() => resolve());
  server.closeAllConnections();
});

const received = (request: IncomingMessage): ReceivedRequest => ({ method: request.method ?? '', url: request.url ?? '', headers: { ...request.headers } });

export interface RecordedServiceOptions {
  /** Whether designs' image lists are answered (made up from `primary_image`); otherwise not found, as unrecorded. */
  imageLists?: boolean;
}

/** The listings served, in walk order: page 1 is the first listing, page n the n-th; past them an empty page. */
export async function startRecordedService(
  listings: RecordedListing[] = ['limit', 'all', 'page_5'], options: RecordedServiceOptions = {},
): Promise<RecordedService> {
  const png = readFileSync(join(FIXTURES, 'images/png-sample.png'));
  const storageRequests: ReceivedRequest[] = [];
  const storage = createServer((request, response) => {
    storageRequests.push(received(request));
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  });
  const storageUrl = await listen(storage);
  const onStorage = (body: string) => body.split(RECORDED_BUCKET).join(`${storageUrl}/`);

  const designs = () => {
    const all = new Map<number, Record<string, unknown>>();
    for (const name of listings) {
      for (const design of JSON.parse(onStorage(listing(name).body)) as Record<string, unknown>[]) all.set(design.id as number, design);
    }
    return all;
  };

  const requests: ReceivedRequest[] = [];
  const send = (response: ServerResponse, status: number, headers: Record<string, string>, body: string) => {
    const bytes = Buffer.from(body, 'utf8');
    response.writeHead(status, { ...headers, 'content-length': String(bytes.length) }).end(bytes);
  };
  const json = (response: ServerResponse, status: number, value: unknown) => send(response, status, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(value));

  const service = createServer((request, response) => {
    requests.push(received(request));
    const url = new URL(request.url ?? '/', 'http://replay');
    const path = url.pathname.replace(/\/+$/, '');
    if (request.method !== 'GET') return json(response, 405, { error: 'The replay answers reads only.' });
    if (path === '/v1/designs') {
      const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
      const name = listings[page - 1];
      // The recorded headers, renumbered to this walk (the recorded last page and total, 572 and 10280, kept).
      const recorded = listing(name ?? listings.at(-1)!);
      const headers: Record<string, string> = { ...recorded.headers, 'X-Pagination-Current-Page': String(page), 'X-Pagination-Next-Page': String(page + 1) };
      if (page > 1) headers['X-Pagination-Previous-Page'] = String(page - 1);
      else delete headers['X-Pagination-Previous-Page'];
      // Past the recordings: an empty page whose headers, like every recorded one, promise more.
      return send(response, 200, headers, name ? onStorage(recorded.body) : '[]');
    }
    const one = /^\/v1\/designs\/(\d+)$/.exec(path);
    if (one) {
      const id = Number(one[1]);
      const recorded = singleRead(id);
      if (recorded) return send(response, recorded.status, recorded.headers, onStorage(recorded.body));
      const design = designs().get(id);
      return design ? json(response, 200, design) : json(response, 404, { error: 'Not found' });
    }
    const images = /^\/v1\/designs\/(\d+)\/images$/.exec(path);
    if (images) {
      const design = options.imageLists === false ? undefined : designs().get(Number(images[1]));
      if (!design) return json(response, 404, { error: 'Not found' });
      const cover = design.primary_image as { file?: unknown } | null | undefined;
      return json(response, 200, cover?.file ? [{ id: design.primary_image_id, design_id: design.id, name: 'cover', file: cover.file }] : []);
    }
    if (/^\/v1\/designs\/\d+\/documents$/.test(path)) return json(response, 200, []);
    if (path === '/v1/user/whoami') return json(response, 200, { ...MADE_UP_USER, authentication_token: null });
    if (path === `/v1/users/${MADE_UP_USER.id}/designs` || path === `/v1/users/${encodeURIComponent(MADE_UP_USER.screen_name)}/designs`) return json(response, 200, []);
    return json(response, 404, { error: 'Not found' });
  });
  const url = await listen(service);

  return {
    url,
    storageUrl,
    requests,
    storageRequests,
    designs,
    async stop() {
      await Promise.all([close(service), close(storage)]);
    },
  };
}
