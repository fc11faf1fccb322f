import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../service/users/user-accounts';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { FileTokenStore } from '../../electron/engine/authorization/file-token-store';
import { Session } from '../../electron/engine/authorization/session';
import type { CliIo } from '../../electron/cli/cli-context';
import { runCli } from '../../electron/cli/main';
import { profilePaths } from '../../electron/engine/profile/profile';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from '../../harness/chromium';
import { startTestService, type TestService } from '../../harness/local-service';

/**
 * `design-sync login / logout / whoami`, run in-process against the local service; the browser part of the
 * sign-in is played by real Chromium on the service's real pages.
 */

const PASSWORD = 'a long enough password';
const posix = process.platform !== 'win32';

/** Everything every command printed, and every token seen, for the final leak check. */
const printed: string[] = [];
const tokens = new Set<string>();

interface Run {
  out: string[];
  err: string[];
  code: Promise<number>;
  /** Resolves with the first match of a line printed to stdout. */
  waitForOut(pattern: RegExp): Promise<RegExpMatchArray>;
}

function cli(argv: string[], stdin = ''): Run {
  const out: string[] = [];
  const err: string[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((waiter) => waiter());
  const io: CliIo = {
    out: (text) => { out.push(text); printed.push(text); wake(); },
    err: (text) => { err.push(text); printed.push(text); wake(); },
    readStdin: async () => stdin,
  };
  const code = runCli(argv, io);
  void code.then(wake);
  return {
    out, err, code,
    async waitForOut(pattern) {
      for (;;) {
        for (const line of out) {
          const match = pattern.exec(line);
          if (match) return match;
        }
        const done = await Promise.race([code.then(() => true), new Promise<false>((resolve) => waiters.push(() => resolve(false)))]);
        if (done && !out.some((line) => pattern.test(line))) throw new Error(`The command ended without printing ${pattern}: ${[...out, ...err].join('\n')}`);
      }
    },
  };
}

describe('design-sync login / logout / whoami', () => {
  let service: TestService;
  let root: string;
  let profileCount = 0;

  beforeAll(async () => {
    service = await startTestService();
    root = mkdtempSync(join(tmpdir(), 'design-sync-cli-login-'));
  });
  afterAll(async () => {
    await service.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const newProfile = () => join(root, `profile-${++profileCount}`);
  const run = (profile: string, args: string[], stdin?: string) => cli(['--service', service.url, '--profile', profile, ...args], stdin);

  /** A user who has never authorized design-sync (no token yet). */
  function newUser(screenName: string) {
    return createUser(service.db, { screenName, password: PASSWORD, now: Date.now() });
  }

  function storedToken(profile: string): string | null {
    const file = profilePaths(profile).tokenFile;
    if (!existsSync(file)) return null;
    const token = readFileSync(file, 'utf8').trim();
    tokens.add(token);
    return token;
  }

  describe('without a browser', () => {
    it('whoami says how to sign in when nobody is', async () => {
      const whoami = run(newProfile(), ['whoami']);
      expect(await whoami.code).toBe(1);
      expect(whoami.err.join('\n')).toBe('Not signed in. Run: design-sync login');
    });

    it('login --with-token checks the token, saves it, and whoami shows the user', async () => {
      const profile = newProfile();
      const { token } = service.addUser('headless');
      tokens.add(token);
      const login = run(profile, ['login', '--with-token'], `  ${token}\n`);
      expect(await login.code).toBe(0);
      expect(login.out[0]).toBe('Signed in as headless');
      expect(storedToken(profile)).toBe(token);

      const whoami = run(profile, ['whoami']);
      expect(await whoami.code).toBe(0);
      expect(whoami.out).toEqual([
        'Signed in as headless',
        'Real name: headless',
        `Service: ${service.url}`,
        `Token kept in the file ${profilePaths(profile).tokenFile} (readable only by you)`,
      ]);
      const json = run(profile, ['whoami', '--json']);
      expect(await json.code).toBe(0);
      expect(JSON.parse(json.out.join('\n'))).toMatchObject({ screen_name: 'headless', service: service.url, token_storage: expect.stringContaining('token') });
    });

    it('login --with-token refuses an empty token and one the service rejects, saving nothing', async () => {
      const profile = newProfile();
      const empty = run(profile, ['login', '--with-token'], ' \n');
      expect(await empty.code).toBe(1);
      expect(empty.err.join('\n')).toMatch(/No token on standard input/);
      tokens.add('made-up-token-value-42');
      const rejected = run(profile, ['login', '--with-token'], 'made-up-token-value-42\n');
      expect(await rejected.code).toBe(1);
      expect(rejected.err).toEqual(['The service does not accept this token.']);
      expect(storedToken(profile)).toBeNull();
    });

    it('logout removes the token, says so, and is idempotent', async () => {
      const profile = newProfile();
      const { token } = service.addUser('leaving');
      tokens.add(token);
      expect(await run(profile, ['login', '--with-token'], token).code).toBe(0);
      const logout = run(profile, ['logout']);
      expect(await logout.code).toBe(0);
      expect(logout.out[0]).toMatch(/^Signed out: the token was removed/);
      expect(storedToken(profile)).toBeNull();
      const again = run(profile, ['logout']);
      expect(await again.code).toBe(0);
      expect(again.out[0]).toBe('Not signed in: there was no token to remove.');
      expect((await run(profile, ['whoami']).code)).toBe(1);
    });

    it('whoami refuses a token file others can read, saying how to fix it', async () => {
      if (!posix) return;
      const profile = newProfile();
      const { token } = service.addUser('careless');
      tokens.add(token);
      expect(await run(profile, ['login', '--with-token'], token).code).toBe(0);
      chmodSync(profilePaths(profile).tokenFile, 0o644);
      const whoami = run(profile, ['whoami']);
      expect(await whoami.code).toBe(1);
      expect(whoami.err.join('\n')).toMatch(/chmod 600/);
    });

    it('login times out with a clear message when no browser answers', async () => {
      const profile = newProfile();
      const login = run(profile, ['login', '--no-browser', '--timeout', '0.3']);
      await login.waitForOut(/^Open this address to sign in: http:\/\/127\.0\.0\.1:\d+\/integrations\/design-sync\/authorized_integrations\/new\?/);
      expect(await login.code).toBe(1);
      expect(login.err.join('\n')).toMatch(/timed out.*0\.3 seconds/);
      expect(storedToken(profile)).toBeNull();
    });
  });

  describe.skipIf(chromiumSkipReason !== undefined)('signing in in Chromium', () => {
    let chromium: LaunchedChromium;
    let page: Page;
    const profile = join(tmpdir(), 'unused');
    let mainProfile = profile;

    beforeAll(async () => {
      chromium = await launchChromium();
      page = await chromium.context.newPage();
      mainProfile = newProfile();
    });
    afterAll(async () => chromium?.close());

    /** Starts `login --no-browser` and returns the address it printed first. */
    async function startLogin(profileDir: string): Promise<{ login: Run; address: string }> {
      const login = run(profileDir, ['login', '--no-browser', '--timeout', '30']);
      const address = (await login.waitForOut(/^Open this address to sign in: (\S+)$/))[1]!;
      expect(login.out[0]).toBe(`Open this address to sign in: ${address}`);
      return { login, address };
    }

    async function signInOnServicePage(screenName: string) {
      await page.locator('#screen_name').fill(screenName);
      await page.locator('#password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    it('signs in through the service\'s pages: sign-in form, Allow, the receiver\'s page', async () => {
      newUser('ada');
      const { login, address } = await startLogin(mainProfile);
      await page.goto(address);
      await signInOnServicePage('ada');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.getByText('Signed in to design-sync as ada. You can close this tab.').waitFor();
      expect(await login.code).toBe(0);
      expect(login.out).toContain('Signed in as ada');

      const token = storedToken(mainProfile)!;
      expect(token).toBeTruthy();
      if (posix) expect(statSync(profilePaths(mainProfile).tokenFile).mode & 0o777).toBe(0o600);
      const whoami = run(mainProfile, ['whoami']);
      expect(await whoami.code).toBe(0);
      expect(whoami.out[0]).toBe('Signed in as ada');
      expect(await page.content()).not.toContain(token);
    });

    it('goes straight through, without an Allow click, when already authorized', async () => {
      const { login, address } = await startLogin(mainProfile);
      const redirectUrl = new URL(address).searchParams.get('redirect_url')!;
      await page.goto(address);
      await page.getByText('Signed in to design-sync as ada. You can close this tab.').waitFor();
      expect(page.url()).toBe(redirectUrl);
      expect(await login.code).toBe(0);
      expect(login.out).toContain('Signed in as ada');
    });

    it('after a revoke on the profile page: whoami says sign in again, the Session needs sign-in, a new sign-in resumes', async () => {
      await page.goto(`${service.url}/profile`);
      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('You have not authorized any application.').waitFor();

      const whoami = run(mainProfile, ['whoami']);
      expect(await whoami.code).toBe(1);
      expect(whoami.err.join('\n')).toMatch(/sign in again.*Run: design-sync login/);
      const revokedToken = storedToken(mainProfile);
      expect(revokedToken).not.toBeNull(); // kept until a new sign-in replaces it

      const session = new Session(new FileTokenStore(profilePaths(mainProfile).tokenFile));
      await session.load();
      const client = new ServiceClient(session.transportOptions({ baseUrl: service.url }));
      await expect(client.whoami()).rejects.toThrow();
      expect(session.state).toMatchObject({ status: 'needs-sign-in', reason: expect.stringMatching(/sign in again/) });
      expect(session.canWrite()).toBe(false);

      const result = await session.signIn({
        authUrl: service.url,
        baseUrl: service.url,
        timeoutMs: 30_000,
        openBrowser: async (url) => {
          await page.goto(url);
          await page.getByRole('button', { name: 'Allow' }).click(); // revoked: the service asks again
          await page.getByText('You can close this tab.').waitFor();
        },
      });
      expect(result.kind).toBe('signed-in');
      expect(session.state).toMatchObject({ status: 'signed-in', user: { screen_name: 'ada' } });
      expect(session.canWrite()).toBe(true);
      expect((await client.whoami()).screen_name).toBe('ada');
      const newToken = storedToken(mainProfile)!;
      expect(newToken).not.toBe(revokedToken);
      // What the session hands out (to the renderer, to logs) holds no token.
      expect(JSON.stringify([result, session.state])).not.toContain(newToken);
      expect(await run(mainProfile, ['whoami']).code).toBe(0);
    });

    it('reports a deny in the browser as cancelled and saves nothing', async () => {
      await chromium.context.clearCookies(); // another person at the browser
      newUser('bea');
      const profileDir = newProfile();
      const { login, address } = await startLogin(profileDir);
      await page.goto(address);
      await signInOnServicePage('bea');
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.getByText('Sign-in was cancelled').first().waitFor();
      expect(await login.code).toBe(1);
      expect(login.err).toEqual(['Sign-in was cancelled in the browser.']);
      expect(storedToken(profileDir)).toBeNull();
    });
  });

  it('never printed a token', () => {
    expect(tokens.size).toBeGreaterThan(0);
    const all = printed.join('\n');
    for (const token of tokens) expect(all).not.toContain(token);
  });
});
