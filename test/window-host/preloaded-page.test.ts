import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_LIBRARY_PAGE, PRELOADED_ANSWERS_ID, requestKey, type PreloadedAnswer } from '../../shared';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { cookieOf, fakeEndpoint, raw } from './host-fixtures';

let root: string;
let host: WindowHost | undefined;
const asked: string[] = [];

/** The fake endpoint, but library.page answered at once with a design whose name tries to end the data block. */
function endpointNamingAScript() {
  const endpoint = fakeEndpoint();
  const handle = endpoint.handle.bind(endpoint);
  endpoint.handle = async (name, input, signal) => {
    asked.push(requestKey(String(name), input));
    if (name !== 'library.page') return handle(name, input, signal);
    return { ok: true, value: { total: 1, totalIsLowerBound: false, items: [{ id: 1, name: '</script><script>alert(1)</script> & <!--' }] } };
  };
  return endpoint;
}

async function openPage(endpoint: ReturnType<typeof fakeEndpoint>, method = 'GET') {
  host = await startWindowHost({ endpoint, staticDir: join(root, 'window') });
  const cookie = await cookieOf(host.port, host.url);
  return raw(host.port, '/', { cookie }, method);
}

function answersIn(html: string): PreloadedAnswer[] | null {
  const block = new RegExp(`<script id="${PRELOADED_ANSWERS_ID}" type="application/json">(.*?)</script>`, 's').exec(html);
  return block ? (JSON.parse(block[1]!) as PreloadedAnswer[]) : null;
}

beforeEach(() => {
  asked.length = 0;
  root = mkdtempSync(join(tmpdir(), 'design-sync-preloaded-page-'));
  mkdirSync(join(root, 'window'));
  writeFileSync(join(root, 'window', 'index.html'), '<!doctype html><html><head><title>window</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>');
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('the window\'s page with its first answers', () => {
  it('carries the library\'s first page in a JSON data block that no design\'s text can end, never cached', async () => {
    const page = await openPage(endpointNamingAScript());
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.body.match(/<script/g)).toHaveLength(2);
    expect(page.body).not.toContain('</script><script>alert');
    expect(answersIn(page.body)).toEqual([{
      name: 'library.page', input: FIRST_LIBRARY_PAGE,
      outcome: { ok: true, value: { total: 1, totalIsLowerBound: false, items: [{ id: 1, name: '</script><script>alert(1)</script> & <!--' }] } },
    }]);
    // Before the window's own script, inside the head, so it is there when the script runs.
    expect(page.body.indexOf(PRELOADED_ANSWERS_ID)).toBeLessThan(page.body.indexOf('</head>'));
    // The engine is asked for the first page, and for the language setting the page and its first frame are in.
    expect([...asked].sort()).toEqual([requestKey('library.page', FIRST_LIBRARY_PAGE), requestKey('settings.get', {})].sort());
  });

  it('is not held up by an engine that does not answer in time: the page comes without answers', async () => {
    // The fake endpoint's library.page waits for a gate nobody opens.
    const endpoint = fakeEndpoint();
    const page = await openPage(endpoint);
    expect(page.status).toBe(200);
    expect(answersIn(page.body)).toBeNull();
    expect(page.body).toContain('<div id="root"></div>');
    endpoint.gate.open();
  });

  it('asks the engine nothing for a HEAD request', async () => {
    const page = await openPage(endpointNamingAScript(), 'HEAD');
    expect(page.status).toBe(200);
    expect(asked).toEqual([]);
  });
});
