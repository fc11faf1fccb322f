import { isAbsolute } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';

export const WINDOW_TITLE = 'design-sync';

/** The window's page background in each theme (renderer/src/styles.css `--bg`), so nothing flashes white in dark mode. */
export const WINDOW_BACKGROUND = { light: '#f6f7f9', dark: '#14171c' } as const;

/** Room for the library grid with its toolbar; the smallest size at which every view still lays out (one card column). */
export const WINDOW_SIZE = { width: 1200, height: 800, minWidth: 720, minHeight: 500 } as const;

export interface MainWindowInput {
  /** Absolute path of the built preload script. */
  preloadPath: string;
  /** `nativeTheme.shouldUseDarkColors` when the window is made. */
  darkBackground: boolean;
  /** Defaults to this process's platform. */
  platform?: NodeJS.Platform;
}

/**
 * The main window: every web preference that matters for security said explicitly, even where it is Electron's default,
 * so that a changed default or a careless edit shows up in a test. Shown on `ready-to-show`, never blank.
 */
export function mainWindowOptions({ preloadPath, darkBackground, platform = process.platform }: MainWindowInput): BrowserWindowConstructorOptions {
  if (!isAbsolute(preloadPath)) throw new Error(`mainWindowOptions: the preload path must be absolute, got ${JSON.stringify(preloadPath)}`);
  return {
    title: WINDOW_TITLE,
    width: WINDOW_SIZE.width,
    height: WINDOW_SIZE.height,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    backgroundColor: darkBackground ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
    autoHideMenuBar: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: spellcheckWithoutDownload(platform),
      // No `enableBlinkFeatures`, no `additionalArguments`: nothing reaches the renderer but the preload's contract.
    },
  };
}

/**
 * Design names and descriptions are typed in the window, so spelling is checked where the system does it (macOS,
 * Windows). On Linux Electron would download Hunspell dictionaries from a CDN: remote content the window does without.
 */
export function spellcheckWithoutDownload(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}
