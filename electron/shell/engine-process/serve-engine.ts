import type { ContractEndpoint } from '../../engine/contract/contract-endpoint';
import { createContractEndpoint } from '../../engine/contract/create-contract-endpoint';
import type { Engine } from '../../engine/runtime/engine';
import { openEngine } from '../../engine/runtime/open-engine';
import type { BridgePort, EngineOpenOptions, EngineToHost, HostToEngine } from '../engine-bridge/messages';
import { bridgedTokenStore, mirroredSettingsStore } from './bridged-stores';
import { bridgedStartAtLogin } from './bridged-start-at-login';
import { engineLog } from '../../engine/log/engine-log';

/** What the engine process needs besides its port (tests give their own). */
export interface ServeEngineOptions {
  open?: typeof openEngine;
  /** Extra options for openEngine (tests: a short settle time, the trash folder). */
  tune?: Partial<Parameters<typeof openEngine>[0]>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The longest the endpoint's own closing (a pull it stopped winding down) may hold up quitting. */
export const ENDPOINT_CLOSE_MS = 2_000;

/**
 * Closes the endpoint (its requests stopped, its services' work awaited) before the engine under it, but never holds
 * quitting longer than `withinMs`: whatever still winds down was told to stop, and the engine's close drains the rest.
 */
async function closeEndpoint(endpoint: { close(): Promise<void> } | null, withinMs: number): Promise<void> {
  if (!endpoint) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overran = new Promise<'overran'>((resolve) => { timer = setTimeout(() => resolve('overran'), withinMs); });
  try {
    const ended = await Promise.race([endpoint.close().then(() => 'closed' as const), overran]);
    if (ended === 'overran') engineLog.warn('engine-process', `the contract endpoint was still closing after ${withinMs} ms: the engine closes anyway`);
  } catch (error) {
    engineLog.warn('engine-process', 'closing the contract endpoint failed', error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The engine's side of the bridge, run in Electron's utility process: waits for 'open', opens the profile's engine
 * with the host's token store and settings, starts its background work (sync, queue, catalogue), then answers the
 * window's contract requests, the host's file and drop requests, and sends every contract event. Resolves once a
 * 'close' has closed the engine (uploads under way stop safely; nothing queued is lost).
 */
export function serveEngine(port: BridgePort<HostToEngine, EngineToHost>, options: ServeEngineOptions = {}): Promise<void> {
  let engine: Engine | null = null;
  let endpoint: (ContractEndpoint & { close(): Promise<void> }) | null = null;
  let opening: Promise<void> | null = null;
  const notOpen = { ok: false as const, problem: { kind: 'internal' as const, message: 'The engine is still starting: try again in a moment.' } };

  return new Promise<void>((resolveServed) => {
    const open = async (openOptions: EngineOpenOptions) => {
      try {
        engine = await (options.open ?? openEngine)({
          profileDir: openOptions.profileDir,
          userAgent: openOptions.userAgent,
          ...(openOptions.serviceUrl ? { serviceUrl: openOptions.serviceUrl } : {}),
          tokenStore: () => bridgedTokenStore(port, openOptions.tokenDescription, undefined, openOptions.tokenKeptIn),
          ...(openOptions.systemLanguages ? { systemLanguages: openOptions.systemLanguages } : {}),
          // The manual proxy's password is kept by the host like the token; the system's proxy is what the host resolved.
          proxySecretStore: () => bridgedTokenStore(port, 'the proxy password, kept like the sign-in token', 'proxy-password'),
          ...(openOptions.systemProxy !== undefined ? { systemProxy: openOptions.systemProxy } : {}),
          settingsStore: () => mirroredSettingsStore(port, openOptions.settings),
          openBrowser: async (url) => port.post({ type: 'open-external', url }),
          ...(openOptions.startAtLogin !== undefined ? { startAtLogin: bridgedStartAtLogin(port, openOptions.startAtLogin) } : {}),
          ...options.tune,
        });
        endpoint = createContractEndpoint(engine);
        endpoint.subscribe((event) => port.post({ type: 'event', event }));
        port.post({ type: 'ready' });
        await engine.startBackground();
        if (engine.backgroundProblem) port.post({ type: 'log', line: `engine: ${engine.backgroundProblem.message}` });
        if (engine.sampleService.problem) port.post({ type: 'log', line: `engine: ${engine.sampleService.problem}` });
      } catch (error) {
        if (!engine) port.post({ type: 'open-failed', message: messageOf(error) });
        else {
          engineLog.error('engine-process', 'the background work could not start', error);
          port.post({ type: 'log', line: `engine: the background work could not start: ${messageOf(error)}` });
        }
      }
    };

    const close = async (drainMs: number) => {
      // Waits for the opening to end (it reports its own failure: 'open-failed').
      await Promise.allSettled([opening]);
      await closeEndpoint(endpoint, Math.min(ENDPOINT_CLOSE_MS, Math.max(drainMs, 0)));
      try {
        await engine?.close({ drainMs });
      } catch (error) {
        engineLog.error('engine-process', 'closing the engine failed', error);
        port.post({ type: 'log', line: `engine: closing failed: ${messageOf(error)}` });
      }
      port.post({ type: 'closed' });
      off();
      resolveServed();
    };

    const off = port.onMessage((message) => {
      switch (message.type) {
        case 'open':
          opening ??= open(message.options);
          return;
        case 'request':
          void (endpoint ? endpoint.handle(message.name, message.input) : Promise.resolve(notOpen)).then((outcome) =>
            port.post({ type: 'response', id: message.id, outcome }));
          return;
        case 'file':
          void (endpoint ? endpoint.file(message.address).catch((error: unknown) => {
            engineLog.warn('engine-process', `the file ${message.address} could not be served`, error);
            return null;
          }) : Promise.resolve(null)).then((file) =>
            port.post({ type: 'file', id: message.id, file }));
          return;
        case 'drop':
          void (endpoint ? endpoint.adoptDroppedFile(message) : Promise.resolve(notOpen)).then((outcome) =>
            port.post({ type: 'dropped', id: message.id, outcome }));
          return;
        case 'thumbnail':
          void (endpoint ? endpoint.adoptGeneratedThumbnail(message) : Promise.resolve(notOpen)).then((outcome) =>
            port.post({ type: 'thumbnail-kept', id: message.id, outcome }));
          return;
        case 'system-proxy':
          engine?.appSettings.proxy.setSystemProxy(message.proxy);
          return;
        case 'close':
          void close(message.drainMs);
          return;
        default:
          // 'token-answer' is read by the bridged token store, 'start-at-login-answer' by the bridged login item.
          return;
      }
    });
  });
}
