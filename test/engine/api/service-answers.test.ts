import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/engine/api/service-client';
import {
  designs, sendJson, sendText, startNotHttpServer, truncated, WEB_PAGE, type Script, useMisbehavingServices,
} from '../../support/misbehaving-service';
import { problemOf } from '../../support/problems';

/**
 * What the client says about answers it cannot use: a web page where data was due, garbage, an answer cut short,
 * errors with or without a readable body, redirects that loop or leave the service's host, and lists whose items are
 * not what the service's interface says. Each message names the problem and what to do; none is a raw error.
 */

const service = useMisbehavingServices(afterEach);

function client(baseUrl: string, retries = 2) {
  return new ServiceClient({ baseUrl, token: () => 'the-token', retry: { retries, minDelayMs: 5, maxDelayMs: 10 } });
}

/** A service whose listing answers with `answer`, and whose other paths answer 404 JSON. */
function listing(answer: (response: ServerResponse) => void): Script {
  return (_, response, seen) => {
    if (seen.path === '/v1/designs') answer(response);
    else sendJson(response, { error: 'Not found' }, 404);
  };
}

describe('answers that are not data', () => {
  it('a web page instead of data asks whether the address is the service\'s API, and is not asked for again', async () => {
    const website = await service(listing((response) => sendText(response, WEB_PAGE, 200, 'text/html; charset=utf-8')));
    const problem = await problemOf(client(website.url).listDesigns());
    expect(problem).toEqual({
      kind: 'server-error', status: 200,
      message: `The service at ${website.host} answered GET /v1/designs with a web page (text/html) instead of data: is ${website.url} the service's API address? Check the service address.`,
    });
    expect(website.requests).toHaveLength(1);
  });

  it('a web page sent as JSON is still recognised as a web page', async () => {
    const website = await service(listing((response) => sendText(response, WEB_PAGE, 200, 'application/json')));
    expect((await problemOf(client(website.url).listDesigns())).message).toMatch(/answered GET \/v1\/designs with a web page \(application\/json\) instead of data/);
  });

  it('garbage is said to be not JSON, with its type and size', async () => {
    const garbage = await service(listing((response) => sendText(response, 'ok\x00\x01 not json at all', 200, 'application/json')));
    expect(await problemOf(client(garbage.url).listDesigns())).toEqual({
      kind: 'server-error', status: 200,
      message: `The service at ${garbage.host} answered GET /v1/designs with something that is not JSON (application/json, 20 bytes); check the service address, or try again later.`,
    });
  });

  it('an empty answer where a list was due is not read as an empty listing', async () => {
    const empty = await service(listing((response) => sendText(response, '', 200, 'application/json')));
    expect((await problemOf(client(empty.url).listDesigns())).message).toBe(
      "The service's answer to GET /v1/designs was not understood: a list of designs was expected, and it is empty; try again later, or tell the service's maintainers.",
    );
  });

  it('JSON that stops in the middle (the connection closed cleanly) is said to have ended early', async () => {
    const text = JSON.stringify(designs(5)).slice(0, 60);
    const cut = await service(listing((response) => sendText(response, text, 200, 'application/json')));
    expect((await problemOf(client(cut.url).listDesigns())).message).toBe("The service's answer to GET /v1/designs ended early: its JSON stops after 60 bytes; try again.");
  });

  it('a service that is not HTTP at all is named as such', async () => {
    const notHttp = await startNotHttpServer();
    service.stopAfterTest(notHttp);
    const problem = await problemOf(client(notHttp.url).listDesigns());
    expect(problem).toMatchObject({ kind: 'server-error' });
    expect(problem.message).toMatch(new RegExp(`^The service at ${notHttp.host} answered GET /v1/designs with something that is not HTTP; check the service address\\.$`));
  });
});

describe('answers cut short', () => {
  it('an answer shorter than its Content-Length ended early: how many bytes of how many; a read is asked for again', async () => {
    const text = JSON.stringify(designs(40));
    const cut = await service(listing((response) => truncated(response, text, 200)));
    const problem = await problemOf(client(cut.url).listDesigns());
    expect(problem).toEqual({
      kind: 'offline', maybeApplied: false,
      message: `The service's answer to GET /v1/designs ended early (200 bytes of ${text.length.toLocaleString('en-US')}); try again.`,
    });
    expect(cut.requests).toHaveLength(3);
  });

  it('a chunked answer whose connection drops says how much came and that the rest never did', async () => {
    const cut = await service(listing((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[{"id":1,"name":"a"},', () => response.socket?.destroy());
    }));
    expect((await problemOf(client(cut.url, 0).listDesigns())).message).toBe(
      "The service's answer to GET /v1/designs ended early (after 21 bytes; the rest never came); try again.",
    );
  });

  it('a connection closed before any answer says the connection was lost during that request', async () => {
    const dropping = await service((_, response) => {
      response.socket?.destroy();
    });
    const problem = await problemOf(client(dropping.url, 1).listDesigns());
    expect(problem).toMatchObject({ kind: 'offline', maybeApplied: false });
    expect(problem.message).toMatch(new RegExp(`^The connection to the service at ${dropping.host} was lost during GET /v1/designs; check your connection or try again later\\.$`));
    expect(dropping.requests).toHaveLength(2);
  });
});

describe('error statuses', () => {
  it('a 500 with a web page says the service failed, with the status, and is tried again', async () => {
    const failing = await service(listing((response) => sendText(response, WEB_PAGE, 500, 'text/html')));
    expect(await problemOf(client(failing.url).listDesigns())).toEqual({
      kind: 'server-error', status: 500,
      message: `The service at ${failing.host} failed while answering GET /v1/designs (HTTP 500, a web page instead of data); try again later.`,
    });
    expect(failing.requests).toHaveLength(3);
  });

  it('a 500 with a JSON error gives the service\'s own words', async () => {
    const failing = await service(listing((response) => sendJson(response, { error: 'The database is being migrated' }, 500)));
    expect(await problemOf(client(failing.url, 0).listDesigns())).toEqual({ kind: 'server-error', status: 500, message: 'The database is being migrated' });
  });

  it('a 502 or 503 from a proxy says the service is unavailable; Retry-After is kept', async () => {
    const proxy = await service(listing((response) => sendText(response, WEB_PAGE, 502, 'text/html')));
    expect((await problemOf(client(proxy.url, 0).listDesigns())).message).toBe(`The service at ${proxy.host} is unavailable (HTTP 502, a web page instead of data); try again later.`);
    const busy = await service(listing((response) => sendText(response, '', 503, 'text/plain', { 'retry-after': 120 })));
    expect(await problemOf(client(busy.url, 0).listDesigns())).toEqual({
      kind: 'server-error', status: 503, retryAfterMs: 120_000, message: `The service at ${busy.host} is unavailable (HTTP 503); try again later.`,
    });
  });

  it('a 404 web page asks whether the address is the service\'s API', async () => {
    const website = await service((_, response) => sendText(response, WEB_PAGE, 404, 'text/html'));
    expect(await problemOf(client(website.url).listDesigns())).toEqual({
      kind: 'not-found',
      message: `GET /v1/designs was not found at ${website.host} (HTTP 404, a web page instead of data): is ${website.url} the service's API address?`,
    });
  });

  it('an error answer without end is classified by its status, without reading it all', async () => {
    const failing = await service(listing((response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      const piece = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed && response.write(piece));
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    }));
    expect(await problemOf(client(failing.url, 0).listDesigns())).toMatchObject({ kind: 'server-error', status: 500 });
    expect(failing.bytesWritten()).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('redirects', () => {
  it('a redirect loop says the service redirected too many times, showing where, and is not tried again', async () => {
    const looping = await service((_, response, seen) => {
      response.writeHead(302, { location: seen.path === '/v1/designs' ? '/a' : seen.path === '/a' ? '/b' : '/a' });
      response.end();
    });
    const problem = await problemOf(client(looping.url).listDesigns());
    expect(problem).toMatchObject({ kind: 'bad-request' });
    const h = looping.host;
    expect(problem.message).toBe(`The service at ${h} redirected GET /v1/designs too many times (${h}/v1/designs → ${h}/a → ${h}/b → ${h}/a); check the service address.`);
    expect(looping.requests).toHaveLength(3);
  });

  it('a chain of redirects that never ends stops after five', async () => {
    const endless = await service((_, response, seen) => {
      const n = Number(seen.path.split('/').pop()) || 0;
      response.writeHead(307, { location: `/r/${n + 1}` });
      response.end();
    });
    const problem = await problemOf(client(endless.url).listDesigns());
    expect(problem.message).toMatch(new RegExp(`redirected GET /v1/designs too many times \\(${endless.host}/v1/designs → ${endless.host}/r/1 → … → ${endless.host}/r/5 → ${endless.host}/r/6\\)`));
    expect(endless.requests).toHaveLength(6);
  });

  it('a redirect to another host is refused before anything is sent there, saying where it pointed', async () => {
    const elsewhere = await service((_, response) => sendJson(response, designs(1)));
    const moved = await service((_, response) => {
      response.writeHead(301, { location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v1/designs` });
      response.end();
    });
    const other = elsewhere.url.replace('127.0.0.1', 'localhost');
    expect(await problemOf(client(moved.url).listDesigns())).toEqual({
      kind: 'bad-request', status: 300,
      message: `The service at ${moved.host} redirected GET /v1/designs to another address (${other}/v1/designs); check the service address: if the service has moved, use ${other} as its address.`,
    });
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a redirect on the service\'s own host is followed, and the token goes along', async () => {
    const renamed = await service((_, response, seen) => {
      if (seen.path === '/v1/designs') {
        response.writeHead(301, { location: '/api/v1/designs' });
        response.end();
      } else {
        sendJson(response, designs(2));
      }
    });
    expect((await client(renamed.url).listDesigns()).items).toHaveLength(2);
    expect(renamed.requests.map((r) => [r.path, r.query.get('auth_token')])).toEqual([['/v1/designs', 'the-token'], ['/api/v1/designs', 'the-token']]);
  });

  it('a file on the service redirected to a storage host is downloaded from there, and the token does not go along', async () => {
    const storage = await service((_, response) => sendText(response, 'model bytes', 200, 'application/octet-stream'));
    const api = await service((_, response) => {
      response.writeHead(302, { location: `${storage.url.replace('127.0.0.1', 'localhost')}/bucket/model.stl` });
      response.end();
    });
    const response = await client(api.url).download('/uploads/document/1/model.stl');
    expect(await response.text()).toBe('model bytes');
    expect(api.requests[0]!.query.get('auth_token')).toBe('the-token');
    expect(storage.requests.map((r) => [r.path, r.query.get('auth_token')])).toEqual([['/bucket/model.stl', null]]);
  });

  it('a write answered with a redirect is not sent on: the message says where it pointed', async () => {
    const redirecting = await service((_, response) => {
      response.writeHead(307, { location: '/elsewhere' });
      response.end();
    });
    expect(await problemOf(client(redirecting.url).createDesign({ name: 'x', excerpt: 'y' }))).toEqual({
      kind: 'bad-request', status: 300,
      message: `The service at ${redirecting.host} answered POST /v1/designs with a redirect to ${redirecting.host}/elsewhere instead of doing it; check the service address.`,
    });
    expect(redirecting.requests).toHaveLength(1);
  });
});

describe('lists whose content is not what the interface says', () => {
  it('items with the wrong types are not understood: how many, which field, an example, and not asked for again', async () => {
    const wrong = await service(listing((response) => sendJson(response, [
      { id: 'x7!', name: 'Garbage id' },
      { id: 2, name: 42 },
      'hello',
      { id: 4, name: 'Fine' },
      { id: 'y', name: 'Another garbage id' },
    ])));
    const problem = await problemOf(client(wrong.url).listDesigns({ limit: 5 }));
    expect(problem).toEqual({
      kind: 'server-error', status: 200,
      message: "The service's answer to GET /v1/designs (page 1) was not understood: 4 of 5 items cannot be read as designs — "
        + 'id: 2 items (item 1 has "x7!" (text) where a whole number was expected); '
        + 'name: 1 item (item 2 has 42 (a number) where text was expected); '
        + 'not an object: 1 item (item 3 is "hello" (text)); '
        + "try again later, or tell the service's maintainers.",
    });
    expect(wrong.requests).toHaveLength(1);
  });

  it('an answer that holds no list is not read as an empty one', async () => {
    const noList = await service(listing((response) => sendJson(response, { designs: 'none', total: 0 })));
    expect((await problemOf(client(noList.url).listDesigns())).message).toBe(
      "The service's answer to GET /v1/designs was not understood: a list of designs was expected, and it is an object with designs, total and no single list in it; try again later, or tell the service's maintainers.",
    );
    const aNumber = await service(listing((response) => sendJson(response, 42)));
    expect((await problemOf(client(aNumber.url).listDesigns())).message).toMatch(/a list of designs was expected, and it is 42 \(a number\)/);
  });

  it('a list in an object (as some services send it) is read', async () => {
    const wrapped = await service(listing((response) => sendJson(response, { designs: designs(2), meta: { total: 2 } })));
    expect((await client(wrapped.url).listDesigns()).items.map((d) => d.id)).toEqual([1, 2]);
  });

  it('an image list with items that are not images is not understood', async () => {
    const wrong = await service((_, response) => sendJson(response, [{ id: 1, name: 'a.png' }, [1, 2]]));
    expect((await problemOf(client(wrong.url).listImages(7))).message).toBe(
      "The service's answer to GET /v1/designs/7/images was not understood: 1 of 2 items cannot be read as images — not an object: 1 item (item 2 is a list); try again later, or tell the service's maintainers.",
    );
  });

  it('whoami that is not a user says which field is wrong', async () => {
    const wrong = await service((_, response) => sendJson(response, { id: 'abc', screen_name: 'maker' }));
    expect((await problemOf(client(wrong.url).whoami())).message).toBe(
      "The service's answer to GET /v1/user/whoami was not understood: a user was expected, and id is \"abc\" (text) where a whole number was expected; try again later, or tell the service's maintainers.",
    );
  });

  it('no message holds the token', async () => {
    const website = await service((_, response) => sendText(response, WEB_PAGE, 200, 'text/html'));
    const problem = await problemOf(client(website.url).listDesigns());
    expect(JSON.stringify(problem)).not.toContain('the-token');
  });
});
