import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../electron/cli/cli-context';
import { runCli } from '../../electron/cli/main';
import { profilePaths } from '../../electron/engine/profile/profile';
import { createUser } from '../../service/users/user-accounts';
import { runCliCapturing } from '../support/cli';
import { startTestService, type TestService } from '../../harness/local-service';
import { Browser, onlyForm } from '../support/service-pages';

/**
 * `--web-url`: the service's web address (sign-in and design pages), remembered by the profile like --service, against
 * the local service with its API and its web site on two ports. `login` signs in there by default.
 */

let service: TestService;
let root: string;
let profileCount = 0;
let designSlug: string;

beforeAll(async () => {
  service = await startTestService({ webPort: 0 });
  root = mkdtempSync(join(tmpdir(), 'design-sync-cli-web-'));
  const { token } = service.addUser('cli-web-author');
  const created = await service.request('POST', '/v1/designs', { token, json: { design: { name: 'Pulley', excerpt: 'A pulley', license: 'cc0' } } });
  const design = (await created.json()) as { id: number; slug: string };
  designSlug = design.slug;
  expect((await service.request('PUT', `/v1/designs/${design.id}`, { token, json: { design: { state: 'published' } } })).status).toBe(204);
});
afterAll(async () => {
  await service.stop();
  rmSync(root, { recursive: true, force: true });
});

const newProfile = () => join(root, `profile-${++profileCount}`);
const settingsOf = (profile: string) => JSON.parse(readFileSync(profilePaths(profile).settingsFile, 'utf8')) as { serviceUrl?: string; webUrl?: string };

/** Runs the CLI in-process; resolves with the first stdout line matching `pattern` while the command goes on. */
function cliWaitingFor(argv: string[], pattern: RegExp) {
  const out: string[] = [];
  const err: string[] = [];
  let found: (match: RegExpMatchArray) => void;
  const match = new Promise<RegExpMatchArray>((resolve) => { found = resolve; });
  const io: CliIo = {
    out: (text) => {
      out.push(text);
      const matched = pattern.exec(text);
      if (matched) found(matched);
    },
    err: (text) => err.push(text),
    readStdin: async () => '',
  };
  return { match, code: runCli(argv, io), out, err };
}

describe('design-sync --web-url', () => {
  it('login opens the sign-in page on the web address and checks the token with the API; the web address is remembered', async () => {
    createUser(service.db, { screenName: 'cli-web-person', password: 'secret', now: Date.now() });
    const profile = newProfile();
    const run = cliWaitingFor(['--profile', profile, '--service', service.url, '--web-url', `${service.webUrl}/`, 'login', '--no-browser', '--timeout', '20'], /Open this address to sign in: (\S+)/);
    const address = new URL((await run.match)[1]!);
    expect(address.origin).toBe(service.webUrl);

    const browser = new Browser(service.webUrl);
    const path = `${address.pathname}${address.search}`;
    expect((await browser.submit(onlyForm(await (await browser.get(path)).text()), { screen_name: 'cli-web-person', password: 'secret' })).status).toBe(303);
    const allowed = await browser.submit(onlyForm(await (await browser.get(path)).text()), { decision: 'allow' });
    const handOver = onlyForm(await allowed.text());
    expect((await browser.post(handOver.attrs.action!, handOver.hidden)).status).toBe(200);

    expect(await run.code, run.err.join('\n')).toBe(0);
    expect(run.out).toContain('Signed in as cli-web-person');
    expect(settingsOf(profile)).toMatchObject({ serviceUrl: service.url, webUrl: service.webUrl });

    // Remembered: the next login (without --web-url) signs in on the web address again.
    const again = cliWaitingFor(['--profile', profile, 'login', '--no-browser', '--timeout', '0.3'], /Open this address to sign in: (\S+)/);
    expect(new URL((await again.match)[1]!).origin).toBe(service.webUrl);
    expect(await again.code).toBe(1);
  }, 30_000);

  it('show gives the design page on the web address; --web-url "" goes back to the one derived from --service', async () => {
    const profile = newProfile();
    expect((await runCliCapturing(profile, ['--service', service.url, '--web-url', service.webUrl, 'pull'])).code).toBe(0);
    const shown = await runCliCapturing(profile, ['show', designSlug]);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain(`page: ${service.webUrl}/designs/${designSlug}`);

    expect((await runCliCapturing(profile, ['--web-url', '', 'show', designSlug])).out).toContain(`page: ${service.url}/designs/${designSlug}`);
    expect(settingsOf(profile).webUrl).toBe('');
  }, 30_000);

  it('a --web-url that is not a web address is refused, naming the option', async () => {
    const refused = await runCliCapturing(newProfile(), ['--service', service.url, '--web-url', 'www.example', 'show', designSlug]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('--web-url: Not a web address: "www.example"');
  });
});
