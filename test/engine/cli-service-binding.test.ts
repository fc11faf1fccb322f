import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../electron/engine/authorization/file-token-store';
import { sameService } from '../../electron/engine/authorization/service-binding';
import { ensureProfile, profilePaths } from '../../electron/engine/profile/profile';
import { runCliCapturing, type CliRun } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { startRecordingServer, type RecordingServer } from './authorization/recording-server';

/**
 * A token belongs to the service that issued it. On a signed-in profile, `--service <another address>` is refused
 * before any request (nothing reaches the other address, least of all the token); the same service spelled another
 * way is the same service; --switch-service signs out of the first one before using the other; logout is never
 * refused. The other service is a second real local service behind a recording proxy, which keeps every request.
 */

let serviceA: TestService;
let serviceB: TestService;
let other: RecordingServer;
let tokenA: string;
let tokenB: string;
const root = mkdtempSync(join(tmpdir(), 'design-sync-cli-binding-'));
let count = 0;

beforeAll(async () => {
  serviceA = await startTestService();
  serviceB = await startTestService();
  other = await startRecordingServer(serviceB.url);
  tokenA = serviceA.addUser('alice').token;
  tokenB = serviceB.addUser('bob').token;
});
afterAll(async () => {
  await other.close();
  await serviceA.stop();
  await serviceB.stop();
  rmSync(root, { recursive: true, force: true });
});

const newProfile = () => join(root, `profile-${++count}`);
/** Everything every command printed, for the final check that no token was ever shown. */
const printed: string[] = [];
async function cli(profile: string, argv: string[], stdin = ''): Promise<CliRun> {
  const run = await runCliCapturing(profile, argv, stdin);
  printed.push(run.out, run.err);
  return run;
}
const settingsOf = (profile: string) => JSON.parse(readFileSync(profilePaths(profile).settingsFile, 'utf8')) as Record<string, unknown>;
const tokenOf = (profile: string) => (existsSync(profilePaths(profile).tokenFile) ? readFileSync(profilePaths(profile).tokenFile, 'utf8').trim() : null);
const refusal = (a: string, b: string) =>
  `This profile is signed in to ${a}; --service ${b} is another service. Use another --profile, or \`design-sync logout\` first (or pass --switch-service to sign out of ${a} and use ${b}).`;

async function signedInToA(): Promise<string> {
  const profile = newProfile();
  const login = await cli(profile, ['--service', serviceA.url, 'login', '--with-token'], tokenA);
  expect(login.code, login.err).toBe(0);
  return profile;
}

describe('the token stays with its service (CLI)', () => {
  it('refuses another --service on a signed-in profile for every command, before any request: the other server sees nothing', async () => {
    const profile = await signedInToA();
    const folder = join(root, 'sync-folder');
    const commands: [string, string[], string?][] = [
      ['whoami', ['whoami']],
      ['whoami --json', ['whoami', '--json']],
      ['pull', ['pull']],
      ['sync', ['sync', folder, '--accept-content-policy']],
      ['search --online', ['search', 'gear', '--online']],
      ['login --with-token', ['login', '--with-token'], tokenA],
      ['status', ['status']],
      ['ui', ['ui', '--no-open']],
    ];
    for (const [name, argv, stdin] of commands) {
      const run = await cli(profile, ['--service', other.url, ...argv], stdin);
      expect(run.code, name).toBe(1);
      expect(run.err, name).toBe(refusal(serviceA.url, other.url));
      expect(run.out, name).toBe('');
    }
    expect(other.requests).toEqual([]);
    expect(existsSync(folder)).toBe(false);
    // Nothing changed: the same service, the same token, still working.
    expect(settingsOf(profile)).toMatchObject({ serviceUrl: serviceA.url, tokenServiceUrl: serviceA.url });
    expect(tokenOf(profile)).toBe(tokenA);
    const whoami = await cli(profile, ['whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.out).toMatch(new RegExp(`^Service: ${serviceA.url}$`, 'm'));
  });

  it('takes the same service spelled another way (trailing slash, upper case, default port) as the same service', async () => {
    const profile = await signedInToA();
    const port = new URL(serviceA.url).port;
    for (const spelling of [`${serviceA.url}/`, `HTTP://127.0.0.1:${port}//`, ` ${serviceA.url} `]) {
      const run = await cli(profile, ['--service', spelling, 'whoami']);
      expect(run.err, spelling).toBe('');
      expect(run.out, spelling).toMatch(/^Signed in as alice$/m);
    }
    expect(settingsOf(profile).serviceUrl).toBe(serviceA.url);
    expect(sameService('http://Example.COM:80/designs/', 'http://example.com/designs')).toBe(true);
    expect(sameService('https://example.com:443', 'HTTPS://EXAMPLE.com/')).toBe(true);
    expect(sameService('http://example.com:8080', 'http://example.com')).toBe(false);
    expect(sameService('http://example.com', 'https://example.com')).toBe(false);
    expect(sameService('http://127.0.0.1:4010', 'http://localhost:4010')).toBe(false);
    expect(sameService('not an address', 'not an address')).toBe(false);
  });

  it('--switch-service signs out of the first service before anything, then signs in to the other: the first token never reaches it', async () => {
    const profile = await signedInToA();
    const switched = await cli(profile, ['--service', other.url, '--switch-service', 'login', '--with-token'], tokenB);
    expect(switched.err).toBe(`Signed out of ${serviceA.url} (its token was removed from this computer): this profile now uses ${other.url}.`);
    expect(switched.code).toBe(0);
    expect(switched.out).toMatch(/^Signed in as bob$/m);
    expect(other.carrying(tokenA)).toEqual([]);
    expect(other.carrying(tokenB).map((r) => r.url.split('?')[0])).toEqual(['/v1/user/whoami']);
    expect(settingsOf(profile)).toMatchObject({ serviceUrl: other.url, tokenServiceUrl: other.url });
    expect(tokenOf(profile)).toBe(tokenB);

    // Now bound to the other service: the first one is the other one.
    const back = await cli(profile, ['--service', serviceA.url, 'whoami']);
    expect(back).toMatchObject({ code: 1, err: refusal(other.url, serviceA.url) });
    const whoami = await cli(profile, ['whoami']);
    expect(whoami.out).toMatch(new RegExp(`^Service: ${other.url}$`, 'm'));
  });

  it('--switch-service drops the old sign-in first: when the new service then refuses the token, the profile is signed out, not left on the old one', async () => {
    const profile = await signedInToA();
    const before = other.requests.length;
    const run = await cli(profile, ['--service', other.url, '--switch-service', 'login', '--with-token'], 'not-a-token-of-b');
    expect(run.code).toBe(1);
    expect(run.err).toContain(`Signed out of ${serviceA.url}`);
    expect(run.err).toContain('The service does not accept this token.');
    expect(tokenOf(profile)).toBeNull();
    expect(settingsOf(profile).serviceUrl).toBe(other.url);
    expect(other.requests.slice(before).every((r) => !r.url.includes(tokenA))).toBe(true);
    expect(other.carrying(tokenA)).toEqual([]);
  });

  it('--switch-service without --service says what it needs', async () => {
    const profile = await signedInToA();
    const run = await cli(profile, ['--switch-service', 'whoami']);
    expect(run).toMatchObject({ code: 1, err: '--switch-service needs --service <url>: the service to use instead.' });
    expect(tokenOf(profile)).toBe(tokenA);
  });

  it('logout is never refused: `--service <other> logout` signs out, then uses the other service, sending it nothing', async () => {
    const profile = await signedInToA();
    const before = other.requests.length;
    const logout = await cli(profile, ['--service', other.url, 'logout']);
    expect(logout.code).toBe(0);
    expect(logout.out).toMatch(/^Signed out: the token was removed/);
    expect(tokenOf(profile)).toBeNull();
    expect(settingsOf(profile)).toMatchObject({ serviceUrl: other.url, tokenServiceUrl: null });
    expect(other.requests.length).toBe(before);
    const whoami = await cli(profile, ['whoami']);
    expect(whoami).toMatchObject({ code: 1, err: 'Not signed in. Run: design-sync login' });
  });

  it('a profile signed in before the service was recorded: its remembered service is the token\'s, and another is refused', async () => {
    const profile = newProfile();
    const paths = ensureProfile(profile);
    writeFileSync(paths.settingsFile, `${JSON.stringify({ serviceUrl: serviceA.url })}\n`);
    await new FileTokenStore(paths.tokenFile).write(tokenA);
    const before = other.requests.length;
    const refused = await cli(profile, ['--service', other.url, 'pull']);
    expect(refused).toMatchObject({ code: 1, err: refusal(serviceA.url, other.url) });
    expect(other.requests.length).toBe(before);
    const whoami = await cli(profile, ['whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.out).toMatch(/^Signed in as alice$/m);
  });

  it('a service address changed behind its back (settings edited by another program): the token is set aside, never sent there', async () => {
    const profile = await signedInToA();
    const paths = profilePaths(profile);
    writeFileSync(paths.settingsFile, `${JSON.stringify({ ...settingsOf(profile), serviceUrl: other.url })}\n`);
    const before = other.requests.length;
    for (const argv of [['whoami'], ['pull'], ['search', 'gear', '--online']]) {
      const run = await cli(profile, argv);
      expect(run.code, argv.join(' ')).toBe(1);
      expect(run.err, argv.join(' ')).toBe(
        `This profile's sign-in is for ${serviceA.url}, but its service address is now ${other.url} (changed by another program?). `
          + `The sign-in is never sent to another service: choose ${serviceA.url} again, or sign in to ${other.url} (design-sync login).`,
      );
    }
    expect(other.requests.length).toBe(before);
    expect(other.carrying(tokenA)).toEqual([]);
    expect(tokenOf(profile)).toBe(tokenA);
    // Choosing its service again brings the sign-in back.
    const again = await cli(profile, ['--service', serviceA.url, 'whoami']);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Signed in as alice$/m);
  });

  it('a signed-out profile may choose another service: it remembers it, and sends no token', async () => {
    const profile = newProfile();
    const before = other.requests.length;
    const run = await cli(profile, ['--service', other.url, 'search', 'gear', '--online']);
    expect(run.code, run.err).toBe(0);
    expect(settingsOf(profile).serviceUrl).toBe(other.url);
    const sent = other.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => !r.url.includes('auth_token'))).toBe(true);
  });

  it('never printed a token', () => {
    expect(printed.length).toBeGreaterThan(20);
    for (const text of printed) {
      expect(text).not.toContain(tokenA);
      expect(text).not.toContain(tokenB);
    }
  });
});
