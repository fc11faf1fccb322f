import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium (apt-get install -y chromium), driven with playwright-core. No browser is ever
 * downloaded. Where it is missing, browser tests skip with a message, except under CI, where they must run
 * (and fail loudly when the browser is missing).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chromiumPresent = existsSync(CHROMIUM_PATH);

/** Why browser tests are skipped here, or undefined when they run. */
export const chromiumSkipReason: string | undefined = chromiumPresent || process.env.CI
  ? undefined
  : `Chromium is not installed at ${CHROMIUM_PATH}: the browser sign-in tests are skipped (install it with: apt-get install -y chromium).`;

if (chromiumSkipReason) console.warn(chromiumSkipReason);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh user-data-dir of its own, removed on close. */
export async function launchChromium(): Promise<LaunchedChromium> {
  if (!chromiumPresent) throw new Error(`Chromium is required but missing at ${CHROMIUM_PATH} (install it with: apt-get install -y chromium).`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'design-sync-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      // The window follows the system's language and region: tests read its English words and 24-hour times
      // (British English, as the catalogs are written), whatever the machine's locale.
      locale: 'en-GB',
      timeout: 30_000,
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
