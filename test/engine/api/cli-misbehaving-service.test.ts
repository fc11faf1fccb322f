import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCliCapturing } from '../../support/cli';
import {
  designs, drip, neverAnswer, sendJson, sendText, startMisbehavingService, truncated, WEB_PAGE, type MisbehavingService, type SeenRequest,
} from '../../support/misbehaving-service';
import { tempDir } from '../cache/cache-fixtures';

/**
 * The exit status and the words of `design-sync pull`, `login`, `whoami` and `search` against a service that
 * misbehaves: pull exits 0 only when it read the whole listing, and otherwise exits 1 saying why it stopped and what it
 * read; login and whoami end within the timeouts with a message, never a hang or a raw error. The timeouts are made
 * short through DESIGN_SYNC_HTTP (what a person on a slow link would set the other way).
 */

const TOKEN = 'cli-token-of-maker';
const ME = { id: 1, screen_name: 'maker', real_name: 'Maker' };

/** How the listing answers, switched by each test; everything else answers as the service would. */
type Listing = (response: ServerResponse, seen: SeenRequest) => void;
let listing: Listing;
let whoami: (response: ServerResponse) => void;
let search: (response: ServerResponse) => void;
let service: MisbehavingService;
const profiles: string[] = [];
const before = process.env.DESIGN_SYNC_HTTP;

function pagedDesigns(total: number, perPage = 5): Listing {
  const all = designs(total);
  return (response, seen) => {
    const page = Number(seen.query.get('page') ?? 1);
    const last = Math.max(1, Math.ceil(total / perPage));
    sendJson(response, all.slice((page - 1) * perPage, page * perPage), 200, {
      'x-pagination-current-page': page, 'x-pagination-total-count': total, 'x-pagination-last-page': last, 'x-pagination-per-page': perPage,
      ...(page < last ? { 'x-pagination-next-page': page + 1 } : {}),
    });
  };
}

beforeAll(async () => {
  process.env.DESIGN_SYNC_HTTP = 'connect=500,first-byte=400,idle=300,overall=800,retries=0';
  service = await startMisbehavingService((_, response, seen) => {
    if (seen.path === '/v1/designs') listing(response, seen);
    else if (seen.path === '/v1/designs/search') search(response);
    else if (seen.path === '/v1/user/whoami') {
      if (seen.query.get('auth_token') === TOKEN) whoami(response);
      else sendJson(response, { error: 'Invalid token' }, 401);
    } else if (/^\/v1\/users\/\d+\/designs$/.test(seen.path)) sendJson(response, []);
    else sendJson(response, []);
  });
});

beforeEach(() => {
  listing = pagedDesigns(3);
  whoami = (response) => sendJson(response, ME);
  search = (response) => sendJson(response, designs(2));
});

afterAll(async () => {
  if (before === undefined) delete process.env.DESIGN_SYNC_HTTP;
  else process.env.DESIGN_SYNC_HTTP = before;
  await service.stop();
  for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
});

function newProfile(): string {
  const profile = tempDir('cli-misbehaving');
  profiles.push(profile);
  return profile;
}

async function pull(...extra: string[]) {
  return runCliCapturing(newProfile(), ['--service', service.url, 'pull', ...extra]);
}

async function timed<T>(promise: Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now();
  const value = await promise;
  return { ...value, ms: performance.now() - started };
}

const AGAIN = 'Run design-sync pull again once the problem is solved.';

describe('design-sync pull: exit status', () => {
  it('exits 0 when the whole listing was read', async () => {
    listing = pagedDesigns(12);
    const run = await pull();
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Pulled from http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s\n/);
    expect(run.out).toMatch(/published designs\s+12\s+0\s+0\s+0/);
    expect(run.err).toBe('');
  });

  it('exits 1 when the listing is a web page, saying so and asking whether the address is the API\'s', async () => {
    listing = (response) => sendText(response, WEB_PAGE, 200, 'text/html');
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/\(listing incomplete\)/);
    expect(run.err).toBe([
      `The listing of designs was not read completely: The service at ${service.host} answered GET /v1/designs with a web page (text/html) instead of data: is ${service.url} the service's API address? Check the service address.`,
      `0 published designs were read (kept in the cache); no design was removed. ${AGAIN}`,
    ].join('\n'));
  });

  it('exits 1 when the listing is garbage', async () => {
    listing = (response) => sendText(response, '#!garbage', 200, 'application/json');
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^The listing of designs was not read completely: The service at .* answered GET \/v1\/designs with something that is not JSON \(application\/json, 9 bytes\)/);
  });

  it('exits 1 when the listing fails with a 500, giving the status', async () => {
    listing = (response) => sendText(response, WEB_PAGE, 500, 'text/html');
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^The listing of designs was not read completely: The service at 127\.0\.0\.1:\d+ failed while answering GET \/v1\/designs \(HTTP 500, a web page instead of data\); try again later\.\n/);
  });

  it('exits 1 when the items have the wrong types, saying which part was not understood instead of "inserted 0"', async () => {
    listing = (response) => sendJson(response, [{ id: 'abc', name: 'One' }, { id: 2, name: 7 }, 'three']);
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^The listing of designs was not read completely: The service's answer to GET \/v1\/designs \(page 1\) was not understood: 3 of 3 items cannot be read as designs — id: 1 item \(item 1 has "abc" \(text\) where a whole number was expected\); name: 1 item .*; not an object: 1 item/);
  });

  it('exits 1 when the listing is too large, with the size read and the limit', async () => {
    listing = (response) => {
      response.setHeader('content-length', 300 * 1024 * 1024);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
    };
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/is too large: it announced 300 MiB, and answers over 32 MiB are refused/);
  });

  it('exits 1 when page 2 is cut short: the pull stopped, and says how far it had read', async () => {
    listing = (response, seen) => {
      if (seen.query.get('page') === '2') truncated(response, JSON.stringify(designs(5, 6)), 40);
      else pagedDesigns(10)(response, seen);
    };
    const run = await pull();
    expect(run.code).toBe(1);
    const text = JSON.stringify(designs(5, 6));
    expect(run.err).toBe([
      `The pull stopped: The service's answer to GET /v1/designs ended early (40 bytes of ${text.length}); try again.`,
      `Read before it stopped: 5 of 10 published designs (kept in the cache); no design was removed. ${AGAIN}`,
    ].join('\n'));
  });

  it('exits 1 within the timeouts when the listing drips one byte at a time, naming the timeout', async () => {
    listing = (response) => drip(response, JSON.stringify(designs(50)), 20);
    const run = await timed(pull());
    expect(run.code).toBe(1);
    expect(run.err).toMatch(new RegExp(`^The pull stopped: The service at ${service.host} took longer than 800 ms to answer GET /v1/designs \\(overall timeout, after \\d+ bytes\\); check your connection or try again later\\.\\nNothing was read: the cache is as it was\\.`));
    expect(run.ms).toBeLessThan(5_000);
  });

  it('exits 1 when the service takes the request and never answers', async () => {
    listing = neverAnswer;
    const run = await timed(pull());
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^The pull stopped: The service did not answer in time: 127\.0\.0\.1:\d+ sent nothing for 400 ms after GET \/v1\/designs was sent \(first-byte timeout\)/);
    expect(run.ms).toBeLessThan(5_000);
  });

  it('exits 1 on a redirect loop, showing it', async () => {
    listing = (response) => {
      response.writeHead(302, { location: '/v1/designs' });
      response.end();
    };
    const run = await pull();
    expect(run.code).toBe(1);
    const h = service.host;
    expect(run.err).toMatch(new RegExp(`The service at ${h} redirected GET /v1/designs too many times \\(${h}/v1/designs( → ${h}/v1/designs)+\\); check the service address\\.`));
  });

  it('--json still prints the summary, with why the listing stopped, and exits 1', async () => {
    listing = (response) => sendJson(response, { error: 'Database is being migrated' }, 503);
    const run = await pull('--json');
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.out);
    expect(summary).toMatchObject({ listingComplete: false, listingProblem: 'Database is being migrated' });
    expect(run.err).toMatch(/^The listing of designs was not read completely: Database is being migrated\n/);
  });

  it('exits 1 when signed in and the own designs cannot be read, though the listing was', async () => {
    const profile = newProfile();
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], TOKEN)).code).toBe(0);
    whoami = (response) => sendJson(response, { id: 'me', screen_name: 'maker' });
    const run = await runCliCapturing(profile, ['pull']);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/published designs\s+3/);
    expect(run.err).toBe("Your own designs were not pulled: The service's answer to GET /v1/user/whoami was not understood: a user was expected, and id is \"me\" (text) where a whole number was expected; try again later, or tell the service's maintainers.");
  });
});

describe('design-sync login and whoami with a service that hangs or drips', () => {
  it('login --with-token fails within the timeouts when the service never answers, and saves nothing', async () => {
    const profile = newProfile();
    whoami = neverAnswer;
    const run = await timed(runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], TOKEN));
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `The token could not be checked with the service, so you are not signed in (nothing was saved): The service did not answer in time: ${service.host} sent nothing for 400 ms after GET /v1/user/whoami was sent (first-byte timeout); check your connection or try again later.`,
    );
    expect(run.ms).toBeLessThan(5_000);
    expect((await runCliCapturing(profile, ['whoami'])).err).toBe('Not signed in. Run: design-sync login');
  });

  it('whoami fails within the timeouts when the service drips its answer', async () => {
    const profile = newProfile();
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], TOKEN)).code).toBe(0);
    whoami = (response) => drip(response, JSON.stringify(ME), 200);
    const run = await timed(runCliCapturing(profile, ['whoami']));
    expect(run.code).toBe(1);
    expect(run.err).toMatch(new RegExp(`^Could not ask the service who is signed in: The service at ${service.host} (sent nothing for 300 ms while answering GET /v1/user/whoami \\(idle timeout|took longer than 800 ms to answer GET /v1/user/whoami \\(overall timeout)`));
    expect(run.ms).toBeLessThan(5_000);
  });
});

describe('design-sync search --online', () => {
  it('an answer cut short is named as such, the cache\'s results are shown, and it exits 1', async () => {
    search = (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 4000 });
      // The connection closes after a part of the answer.
      response.write('[{"id":1,"name":"Gear"', () => response.socket?.destroy());
    };
    const run = await runCliCapturing(newProfile(), ['--service', service.url, 'search', 'gear', '--online']);
    expect(run.code).toBe(1);
    expect(run.err).toBe("The online search failed: The service's answer to GET /v1/designs/search ended early (22 bytes of 4,000); try again. These results come from the cache.");
  });

  it('exits 1 saying the answer was not understood, rather than "No designs found"', async () => {
    search = (response) => sendJson(response, { results: 'none' });
    const run = await runCliCapturing(newProfile(), ['--service', service.url, 'search', 'gear', '--online']);
    expect(run.code).toBe(1);
    expect(run.err).toBe("The online search failed: The service's answer to GET /v1/designs/search (page 1) was not understood: a list of designs was expected, and it is an object with results and no single list in it; try again later, or tell the service's maintainers.");
  });
});
