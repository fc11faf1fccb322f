import type { EngineWords } from '../../../shared/i18n/engine-words';
import type { Outcome } from '../../../shared';
import type { EventMessage, ServedFile } from '../../engine/contract/contract-endpoint';
import type { EngineSettings } from '../../engine/settings/settings-store';

/**
 * The messages between the Electron main process (the host: windows, safeStorage, electron-store, the system browser)
 * and the engine's utility process. The window's contract is carried inside them ('request', 'response', 'event');
 * the rest is what only the host can do for the engine (the token, settings, the browser) or only the engine can do
 * for the host (files, dropped files). Both ends are our own code; the window's input is checked by the engine's
 * contract endpoint all the same.
 */
export interface EngineOpenOptions {
  profileDir: string;
  userAgent: string;
  /** The settings as electron-store holds them: the engine works on a copy and reports every change back. */
  settings: EngineSettings;
  /** A service address given on the command line, remembered from now on. */
  serviceUrl?: string;
  /** Where and how the token is kept, in words (never the token). */
  tokenDescription: string;
  /** The same as facts, which the window words in the person's language. */
  tokenKeptIn?: EngineWords;
  /**
   * The system's languages, most important first (Electron's app.getPreferredSystemLanguages()): what a language
   * setting of 'system' means for the pages the engine process serves (the sign-in's last page).
   */
  systemLanguages?: string[];
  /** Whether the system starts the app at login now; absent when this host cannot register the app (it then says so). */
  startAtLogin?: boolean;
  /** The system's proxy for the service as the host resolved it (system-proxy.ts; null: direct); absent when it could not. */
  systemProxy?: string | null;
}

/** Which secret a token message is about: the sign-in token (absent), or the manual proxy's password. */
export type SecretName = 'proxy-password';

export type TokenOperation = 'read' | 'write' | 'clear';

export type HostToEngine =
  | { type: 'open'; options: EngineOpenOptions }
  | { type: 'request'; id: number; name: string; input: unknown }
  | { type: 'file'; id: number; address: string }
  | { type: 'drop'; id: number; designId: number; fileName: string; stagedPath: string }
  | { type: 'thumbnail'; id: number; designId: number; documentId: number; stagedPath: string }
  /** The host's answer to the engine's 'token' message. */
  | { type: 'token-answer'; id: number; ok: true; token: string | null; secret?: SecretName }
  | { type: 'token-answer'; id: number; ok: false; message: string; words?: EngineWords; secret?: SecretName }
  /** The host's answer to the engine's 'start-at-login' message: the state the system then has. */
  | { type: 'start-at-login-answer'; id: number; ok: true; on: boolean }
  | { type: 'start-at-login-answer'; id: number; ok: false; message: string }
  /** The system's proxy for the service, resolved again by the host (the service address changed); null: direct. */
  | { type: 'system-proxy'; proxy: string | null }
  | { type: 'close'; drainMs: number };

export type EngineToHost =
  | { type: 'ready' }
  | { type: 'open-failed'; message: string }
  | { type: 'response'; id: number; outcome: Outcome<unknown> }
  | { type: 'file'; id: number; file: ServedFile | null }
  | { type: 'dropped'; id: number; outcome: Outcome<unknown> }
  | { type: 'thumbnail-kept'; id: number; outcome: Outcome<unknown> }
  | { type: 'event'; event: EventMessage }
  | { type: 'token'; id: number; operation: TokenOperation; token?: string; secret?: SecretName }
  | { type: 'settings'; settings: EngineSettings }
  /** Registers the app at login (on) or removes it (off): only the host can (Electron's login items, the autostart entry). */
  | { type: 'start-at-login'; id: number; on: boolean }
  | { type: 'open-external'; url: string }
  | { type: 'log'; line: string }
  | { type: 'closed' };

/**
 * One end of a message channel, whatever carries it: Electron's utilityProcess and its parentPort, or a
 * worker_threads MessageChannel in tests.
 */
export interface BridgePort<In, Out> {
  post(message: Out): void;
  onMessage(listener: (message: In) => void): () => void;
}
