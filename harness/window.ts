import type { Page } from 'playwright-core';
import { createContractEndpoint } from '../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../electron/engine/runtime/engine';
import type { StartAtLoginHost } from '../electron/engine/settings/start-at-login';
import { startWindowHost, type WindowHost } from '../electron/window-host/window-host';
import { launchChromium, type LaunchedChromium } from './chromium';
import { startTestService, type TestService } from './local-service';
import { buildWindow, type BuiltWindow } from './window-build';
import { openProfile } from './profile';

/**
 * The few DOM names the checks run in the page use: these tests' TypeScript world is Node's, without the DOM's
 * types. (Functions, not strings: the window's CSP forbids the eval that a string predicate needs.)
 */
export interface PageGlobals {
  document: { body: unknown; querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; naturalWidth?: number }> };
  getComputedStyle(element: unknown): { backgroundColor: string };
  [name: string]: unknown;
}

export interface WindowFixture {
  service: TestService;
  /** The signed-in user's token (for checking on the service what the window did). */
  makerToken: string;
  engine: Engine;
  host: WindowHost;
  page: Page;
  /** Messages of Content-Security-Policy violations the page reported. */
  cspViolations: string[];
  /** How many of the page's contract requests named `name` have been answered so far. */
  answered(name: string): number;
  close(): Promise<void>;
}

/**
 * The window as a person gets it: the local service (seeded by `seed`), the engine of a profile signed in as `maker`
 * (unless `signedIn: false`; the user exists either way, password "secret") with the catalogue pulled, `design-sync ui`'s host serving the window as built (the test run's one build), and a Chromium page on it, once the window started.
 */
export interface WindowOptions {
  signedIn?: boolean;
  /** The service's data folder (the caller's: it outlives the service, which a test can then start again). */
  serviceDataDir?: string;
  /** While sync runs, how often the engine polls the service for changes (default: the engine's, 30 s). */
  remotePollMs?: number;
  /** A first run: the profile has no service chosen (the service still runs, for the test to give its address). */
  noService?: boolean;
  /**
   * Events of these names never reach the page (the host sends them; the page's socket drops them): what a window
   * does when it misses them, as one does whose socket was not open yet or whose events came together.
   */
  dropEvents?: readonly string[];
  /** The desktop app's login item, as the Electron shell gives the engine one (`design-sync ui` gives none). */
  startAtLogin?: StartAtLoginHost;
}

export async function openWindow(seed: (service: TestService, makerToken: string) => Promise<void>, options: WindowOptions = {}): Promise<WindowFixture> {
  // A data folder of the caller's outlives the service, so that a test can start it again on the same port.
  const service = await startTestService(options.serviceDataDir ? { dataDir: options.serviceDataDir } : {});
  const { token } = service.addUser('maker');
  await seed(service, token);
  const profile = await openProfile({
    ...(options.noService ? {} : { serviceUrl: service.url }), settleMs: 200, token: options.signedIn === false ? null : token,
    ...(options.remotePollMs !== undefined ? { remotePollMs: options.remotePollMs } : {}),
    ...(options.startAtLogin ? { startAtLogin: options.startAtLogin } : {}),
  });
  const { engine } = profile;
  if (!options.noService) {
    await engine.catalogue.pullNow();
    // Searchable, as the window is once the engine has filled the search index behind its pull.
    await engine.searchIndex.whenIdle();
  }
  const closeProfile = async () => {
    await profile.close();
    await service.stop().catch(() => {});
  };
  const window = await openWindowOn(engine, { ...(options.dropEvents ? { dropEvents: options.dropEvents } : {}) }).catch(async (error: unknown) => {
    await closeProfile();
    throw error;
  });
  return {
    service, makerToken: token, engine, host: window.host, page: window.page, cspViolations: window.cspViolations, answered: window.answered,
    async close() {
      await window.close();
      await closeProfile();
    },
  };
}

export interface WindowOnOptions {
  /** The window's build to serve (kept by the caller); by default the run's own, removed on close. */
  built?: BuiltWindow;
  /** The page's size (default 1100×760). */
  viewport?: { width: number; height: number };
  /** What to do to the page before it opens the window (e.g. scripts it runs first). */
  beforeLoad?: (page: Page) => Promise<void>;
  /** Events of these names never reach the page (see WindowOptions.dropEvents). */
  dropEvents?: readonly string[];
  /** Wait until the window started (the default), or return once the page is loaded (to measure its start). */
  waitForStart?: boolean;
}

/** A window on an engine: its contract endpoint, `design-sync ui`'s host and a Chromium page on it. */
export interface EngineWindow {
  endpoint: ReturnType<typeof createContractEndpoint>;
  host: WindowHost;
  page: Page;
  /** Messages of Content-Security-Policy violations the page reported. */
  cspViolations: string[];
  /** How many of the page's contract requests named `name` have been answered so far. */
  answered(name: string): number;
  /** Closes the page, the host and the endpoint (not the engine: the caller's). */
  close(): Promise<void>;
}

/**
 * The window as `design-sync ui` serves it for `engine` (the tests', the benchmarks' or the screenshots' profile):
 * the window built, the engine's contract endpoint, the host on 127.0.0.1 and a page of Debian's Chromium on it, once
 * the window started.
 */
export async function openWindowOn(engine: Engine, options: WindowOnOptions = {}): Promise<EngineWindow> {
  const cleanups: (() => unknown)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const built = options.built ?? await buildWindow();
    if (!options.built) cleanups.push(() => built.remove());
    const endpoint = createContractEndpoint(engine);
    cleanups.push(() => endpoint.close());
    const host = await startWindowHost({ endpoint, staticDir: built.dir });
    cleanups.push(() => host.close());
    const chromium: LaunchedChromium = await launchChromium();
    cleanups.push(() => chromium.close());
    const page = await chromium.context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const answers = contractAnswers(page);
    if (options.dropEvents?.length) await dropEvents(page, new Set(options.dropEvents));
    await page.setViewportSize(options.viewport ?? { width: 1100, height: 760 });
    await options.beforeLoad?.(page);
    await page.goto(host.url);
    if (options.waitForStart !== false) await windowStarted(page);
    return { endpoint, host, page, cspViolations, answered: (name) => answers.get(name) ?? 0, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Waits until the window started: the library's first frame, which `design-sync ui` draws into the page, takes no
 * input until the window's script replaces it (a key pressed before then is the browser's, not the window's).
 */
export async function windowStarted(page: Page, timeout = 15_000): Promise<void> {
  await page.waitForFunction(() => {
    const root = (globalThis as unknown as { document: { getElementById(id: string): { hasAttribute(name: string): boolean; childElementCount: number } | null } }).document.getElementById('root');
    return root !== null && !root.hasAttribute('inert') && root.childElementCount > 0;
  }, undefined, { timeout });
}

/** The contract's socket relayed, but for the events named in `names`. */
async function dropEvents(page: Page, names: ReadonlySet<string>): Promise<void> {
  await page.routeWebSocket(/\/contract$/, (socket) => {
    const host = socket.connectToServer();
    host.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { type?: string; name?: string };
      if (frame.type !== 'event' || !frame.name || !names.has(frame.name)) socket.send(message);
    });
  });
}

/** Counts, by request name, the contract's answers the page receives over the host's WebSocket. */
function contractAnswers(page: Page): Map<string, number> {
  const answers = new Map<string, number>();
  const names = new Map<number, string>();
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as { type?: string; id?: number; name?: string };
      if (frame.type === 'request' && frame.id !== undefined && frame.name) names.set(frame.id, frame.name);
    });
    socket.on('framereceived', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as { type?: string; id?: number };
      const name = frame.type === 'response' && frame.id !== undefined ? names.get(frame.id) : undefined;
      if (name) answers.set(name, (answers.get(name) ?? 0) + 1);
    });
  });
  return answers;
}
