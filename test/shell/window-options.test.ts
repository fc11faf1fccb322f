import { describe, expect, it, vi } from 'vitest';
import { mainWindowOptions, spellcheckWithoutDownload, WINDOW_BACKGROUND } from '../../electron/shell/window/window-options';

// These modules need only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded by the shell\'s decisions');
});

describe('the main window\'s options', () => {
  const options = mainWindowOptions({ preloadPath: '/app/preload.js', darkBackground: false, platform: 'linux' });

  it('isolates the page from Node and Electron: context isolation, sandbox, no Node anywhere, web security on', () => {
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.js',
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
    });
  });

  it('enables no Blink feature and passes no arguments to the renderer', () => {
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(options.webPreferences).not.toHaveProperty('additionalArguments');
    expect(options.webPreferences).not.toHaveProperty('partition');
  });

  it('is shown only when ready, sized for the library, with a title and a minimum size', () => {
    expect(options.show).toBe(false);
    expect(options.title).toBe('design-sync');
    expect(options.width! >= options.minWidth!).toBe(true);
    expect(options.height! >= options.minHeight!).toBe(true);
    expect(options.minWidth).toBeGreaterThanOrEqual(640);
  });

  it('paints the theme\'s background before the page, so a dark window does not flash white', () => {
    expect(options.backgroundColor).toBe(WINDOW_BACKGROUND.light);
    expect(mainWindowOptions({ preloadPath: '/app/preload.js', darkBackground: true }).backgroundColor).toBe(WINDOW_BACKGROUND.dark);
  });

  it('checks spelling where the system does it, never downloading dictionaries (Linux)', () => {
    expect(spellcheckWithoutDownload('darwin')).toBe(true);
    expect(spellcheckWithoutDownload('win32')).toBe(true);
    expect(spellcheckWithoutDownload('linux')).toBe(false);
    expect(options.webPreferences?.spellcheck).toBe(false);
  });

  it('refuses a relative or empty preload path', () => {
    expect(() => mainWindowOptions({ preloadPath: 'preload.js', darkBackground: false })).toThrow(/absolute/);
    expect(() => mainWindowOptions({ preloadPath: '', darkBackground: false })).toThrow(/absolute/);
  });
});
