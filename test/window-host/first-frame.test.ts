import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_FRAME_FILE, FIRST_FRAME_FOLDER } from '../../shared';
import { styleAttributeHashes } from '../../electron/window-host/first-frame';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { cookieOf, fakeEndpoint, raw } from './host-fixtures';

const STYLESHEET = '.card{color:#123}';
/** What a test's renderer draws: a grid row placed by a style attribute, and the names of the first page's cards. */
const RENDERER = `export function renderFirstFrame(answers) {
  const page = answers.find((answer) => answer.name === 'library.page')?.outcome;
  if (!page?.ok) return null;
  if (page.value.items.some((item) => item.name === 'breaks the renderer')) throw new Error('drawn wrong on purpose');
  return '<div class="grid-row" style="transform:translateY(312px);grid-template-columns:repeat(4, minmax(0, 1fr))">'
    + page.value.items.map((item) => '<article class="card">' + item.name + '</article>').join('') + '</div><div style="height:10px"></div>';
}`;

let root: string;
let host: WindowHost | undefined;
const logged: string[] = [];

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

/** The fake endpoint with library.page answered at once by these cards. */
function endpointWith(names: string[]) {
  const endpoint = fakeEndpoint();
  const handle = endpoint.handle.bind(endpoint);
  endpoint.handle = async (name, input, signal) => {
    if (name !== 'library.page') return handle(name, input, signal);
    return { ok: true, value: { total: names.length, totalIsLowerBound: false, items: names.map((cardName, index) => ({ id: index + 1, name: cardName })) } };
  };
  return endpoint;
}

async function openPage(endpoint: ReturnType<typeof fakeEndpoint>, method = 'GET') {
  host = await startWindowHost({ endpoint, staticDir: join(root, 'renderer'), log: (line) => logged.push(line) });
  const cookie = await cookieOf(host.port, host.url);
  return raw(host.port, '/', { cookie }, method);
}

function writeBuild(options: { renderer?: string | null; stylesheet?: string } = {}) {
  mkdirSync(join(root, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><html><head><script type="module" crossorigin src="./assets/index.js"></script>'
    + '<link rel="stylesheet" crossorigin href="./assets/index.css"></head><body><div id="root"></div></body></html>');
  writeFileSync(join(root, 'renderer', 'assets', 'index.css'), options.stylesheet ?? STYLESHEET);
  if (options.renderer === null) return;
  mkdirSync(join(root, FIRST_FRAME_FOLDER));
  writeFileSync(join(root, FIRST_FRAME_FOLDER, FIRST_FRAME_FILE), options.renderer ?? RENDERER);
}

const styleSources = (csp: string | string[] | undefined) => /style-src ([^;]*)/.exec(String(csp ?? ''))?.[1]?.split(' ') ?? [];

beforeEach(() => {
  logged.length = 0;
  root = mkdtempSync(join(tmpdir(), 'design-sync-first-frame-'));
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('the window\'s page with the library\'s first frame drawn in', () => {
  it('comes with the frame in its root, inert until the window starts, and its stylesheet written in', async () => {
    writeBuild();
    const page = await openPage(endpointWith(['Gear', 'Bolt']));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root" inert><div class="grid-row"');
    expect(page.body).toContain('<article class="card">Gear</article><article class="card">Bolt</article>');
    expect(page.body).toContain(`<style>${STYLESHEET}</style>`);
    expect(page.body).not.toContain('index.css');
    // The window's script still comes from its file.
    expect(page.body).toContain('<script type="module" crossorigin src="./assets/index.js"></script>');
  });

  it('allows exactly the styles it wrote in: the stylesheet and each style attribute, by their hashes', async () => {
    writeBuild();
    const page = await openPage(endpointWith(['Gear']));
    const sources = styleSources(page.headers['content-security-policy']);
    expect(sources.sort()).toEqual([
      "'self'", "'unsafe-hashes'",
      `'${sha256('transform:translateY(312px);grid-template-columns:repeat(4, minmax(0, 1fr))')}'`,
      `'${sha256('height:10px')}'`,
      `'${sha256(STYLESHEET)}'`,
    ].sort());
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('is served as the window is built now: a rebuild while the host runs is read again, with its new stylesheet', async () => {
    writeBuild();
    const first = await openPage(endpointWith(['Gear']));
    expect(first.body).toContain(`<style>${STYLESHEET}</style>`);
    const rebuilt = '.card{color:#456;margin:0}';
    writeFileSync(join(root, 'renderer', 'assets', 'index-2.css'), rebuilt);
    writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><html><head><title>rebuilt</title><script type="module" crossorigin src="./assets/index.js"></script>'
      + '<link rel="stylesheet" crossorigin href="./assets/index-2.css"></head><body><div id="root"></div></body></html>');
    const again = await raw(host!.port, '/', { cookie: await cookieOf(host!.port, host!.url) });
    expect(again.body).toContain('<title>rebuilt</title>');
    expect(again.body).toContain(`<style>${rebuilt}</style>`);
    expect(again.body).toContain('<article class="card">Gear</article>');
    expect(styleSources(again.headers['content-security-policy'])).toContain(`'${sha256(rebuilt)}'`);
    expect(styleSources(again.headers['content-security-policy'])).not.toContain(`'${sha256(STYLESHEET)}'`);
  });

  it('is served without a frame, and with its usual policy, when the build has no renderer of it', async () => {
    writeBuild({ renderer: null });
    const page = await openPage(endpointWith(['Gear']));
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.body).toContain('href="./assets/index.css"');
    expect(styleSources(page.headers['content-security-policy'])).toEqual(["'self'"]);
  });

  it('is served without a frame when the engine did not answer in time', async () => {
    writeBuild();
    // The fake endpoint's library.page waits for a gate nobody opens (until the end).
    const endpoint = fakeEndpoint();
    const page = await openPage(endpoint);
    expect(page.body).toContain('<div id="root"></div>');
    expect(styleSources(page.headers['content-security-policy'])).toEqual(["'self'"]);
    endpoint.gate.open();
  });

  it('is served without a frame, and says why in the log, when drawing it fails', async () => {
    writeBuild();
    const page = await openPage(endpointWith(['breaks the renderer']));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    expect(logged.join('\n')).toMatch(/the first frame could not be drawn \(drawn wrong on purpose\)/);
  });

  it('is served without a frame, and says why in the log, when the renderer cannot be loaded', async () => {
    writeBuild({ renderer: 'export const renderFirstFrame = ;' });
    const page = await openPage(endpointWith(['Gear']));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    expect(logged.join('\n')).toMatch(/the first frame's renderer could not be loaded/);
  });

  it('keeps the stylesheet as a link when its text could end the element it would be written into', async () => {
    writeBuild({ stylesheet: '.card{color:red}</style><script>alert(1)</script>' });
    const page = await openPage(endpointWith(['Gear']));
    expect(page.body).toContain('<article class="card">Gear</article>');
    expect(page.body).toContain('href="./assets/index.css"');
    expect(page.body).not.toContain('<style>');
  });
});

describe('the hashes of a frame\'s style attributes', () => {
  it('are taken over each distinct value as the browser reads it (React\'s escapes undone)', () => {
    const markup = '<div style="font-family:&quot;A&amp;B&quot;"></div><div style="height:1px"></div><p style="height:1px"></p>';
    expect(styleAttributeHashes(markup)).toEqual([sha256('font-family:"A&B"'), sha256('height:1px')]);
  });

  it('leave out text that only looks like an attribute (React escapes the quotes of text)', () => {
    expect(styleAttributeHashes('<h3> style=&quot;color:red&quot;</h3>')).toEqual([]);
  });
});
