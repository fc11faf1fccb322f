import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findApplication, grantAuthorization, liveAuthorization, REGISTERED_APPLICATION, revokeAuthorization } from '../../../service/authorization/integrations';
import { FileTokenStore } from '../../../electron/engine/authorization/file-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import { profilePaths } from '../../../electron/engine/profile/profile';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { QueueStore } from '../../../electron/engine/queue/queue-store';
import { openSyncDatabase } from '../../../electron/engine/sync-state/sync-database';
import { runCliCapturing } from '../../support/cli';
import { startTestService, type TestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { runCliChild, startCliChild, type CliProcess } from '../../support/cli-child';
import { startRecordingServer } from './recording-server';
import { clientFor } from '../../../harness/sync-computers';

/**
 * Signing in again resumes the queue at once. The service refuses the token (revoked on the service), a file waits in
 * the queue for a sign-in; a new sign-in, made by the window in the same process or by `design-sync login` in another
 * process, sends it without a restart: the engine takes up the token the other process stored (it watches the token
 * file only while the queue waits for a sign-in).
 */

let service: TestService;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
});
afterAll(async () => service.stop());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A user with a token, a design of theirs, and the ways to revoke the token and get a new one, as on the service. */
function account(screenName: string) {
  const { user, token } = service.addUser(screenName);
  const app = findApplication(service.db, REGISTERED_APPLICATION)!;
  return {
    user,
    token,
    revoke() {
      const live = liveAuthorization(service.db, user.id, app.id)!;
      expect(revokeAuthorization(service.db, user.id, live.id, Date.now())).toBe(true);
    },
    newToken: () => grantAuthorization(service.db, user.id, app.id, Date.now()).token,
  };
}

async function documentNames(token: string, designId: number): Promise<string[]> {
  return (await clientFor(service.url, token).listDocuments(designId)).map((d) => d.name);
}

/** The queue's state as another process (status) reads it from the profile's sync database. */
function queueStatus(profile: string) {
  const db = openSyncDatabase(profilePaths(profile).syncDatabase);
  try {
    return new QueueStore(db).status();
  } finally {
    db.close();
  }
}

/** The queue's recent activity as another process (status) reads it: the wait for a sign-in is said there, durably. */
function queueActivity(profile: string): string {
  const db = openSyncDatabase(profilePaths(profile).syncDatabase);
  try {
    return new QueueStore(db).recentActivity(20).map((entry) => entry.message).join('\n');
  } finally {
    db.close();
  }
}

/** Plays the service's last step of the browser sign-in (spec §5.4): the form posted to the loopback receiver. */
async function deliver(authorizeAddress: string, token: string, user: { id: number; screen_name: string }): Promise<void> {
  const redirectUrl = new URL(authorizeAddress).searchParams.get('redirect_url')!;
  const answer = await fetch(redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ authentication_token: token, user: JSON.stringify(user), authorized_integration: '{}' }),
  });
  expect(answer.status).toBe(200);
}

describe('signing in again resumes the queue at once', () => {
  it('`login` in another process while `sync --watch` waits for a sign-in: the waiting file is sent, no restart', async () => {
    const alice = account('resume-alice');
    const design = await clientFor(service.url, alice.token).createDesign({ name: 'Bracket', excerpt: 'x', license: 'cc0' });
    const profile = tempDir('resume-profile');
    const root = join(tempDir('resume-root'), 'Designs');
    cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
    expect((await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], alice.token)).code).toBe(0);

    const watching: CliProcess = startCliChild(['--profile', profile, 'sync', root, '--watch', '--accept-content-policy', '--settle-ms', '100']);
    cleanups.push(() => watching.interrupt());
    await watching.waitFor(/watching; Ctrl-C to stop/);

    alice.revoke();
    writeFileSync(join(root, 'bracket', 'bracket.stl'), 'solid bracket');
    await watching.waitFor(/queued: upload bracket\/bracket\.stl/);
    await until('the queue to wait for a sign-in', () => /Sign in again/.test(queueActivity(profile)), 20_000);
    expect(await documentNames(alice.newToken(), design.id)).toEqual([]);

    // Another terminal: design-sync login --with-token, with the token the service hands out now.
    const login = await runCliChild(['--profile', profile, 'login', '--with-token'], { stdin: alice.newToken() });
    expect(login.err).toBe('');
    expect(login.code).toBe(0);

    await until('the waiting file on the service', async () => (await documentNames(alice.newToken(), design.id)).includes('bracket.stl'), 20_000);
    expect(watching.child.exitCode).toBeNull();
    await until('the queue to say it resumed', () => queueStatus(profile).counts.waiting === 0, 10_000);
    expect(await watching.interrupt()).toBe(0);
    expect(watching.out()).not.toContain(alice.token);
  }, 60_000);

  describe('in one process', () => {
    /**
     * An engine whose waiting file waits for a sign-in: the person's token revoked on the service, or (`refusedFor`)
     * refused by the service for a while (every answer a 401), then good again.
     */
    async function blockedEngine(screenName: string, serviceUrl = service.url, how: 'revoked' | 'refused-for-a-while' = 'revoked') {
      const person = account(screenName);
      const design = await clientFor(service.url, person.token).createDesign({ name: 'Clamp', excerpt: 'x', license: 'cc0' });
      const profile = tempDir('resume-engine');
      const root = join(tempDir('resume-engine-root'), 'Designs');
      cleanups.push(() => rmSync(profile, { recursive: true, force: true }), () => rmSync(join(root, '..'), { recursive: true, force: true }));
      expect((await runCliCapturing(profile, ['--service', serviceUrl, 'login', '--with-token'], person.token)).code).toBe(0);
      const engine: Engine = await openEngine({
        profileDir: profile, userAgent: 'design-sync-test', settleMs: 100, trash: 'folder',
        tokenStore: (paths) => new FileTokenStore(paths.tokenFile),
      });
      cleanups.push(() => engine.close());
      engine.sync.acceptContentPolicy();
      mkdirSync(root, { recursive: true });
      await engine.sync.chooseFolder(root);
      await engine.startBackground();
      const { folder } = await until('the design folder', () => engine.sync.syncParts().sync.folders.ofDesign(design.id), 10_000);
      await until('the design folder on disk', () => existsSync(join(root, folder)), 10_000);

      if (how === 'revoked') person.revoke();
      else expect((await service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 401 } })).ok).toBe(true);
      writeFileSync(join(root, folder, 'clamp.stl'), 'solid clamp');
      await until('the file to wait in the queue for a sign-in', () => engine.sync.syncParts().runner.blockedBy?.kind === 'sign-in' && engine.queue.status().counts.waiting === 1, 20_000);
      expect(engine.account.session.state.status).toBe('needs-sign-in');
      if (how === 'refused-for-a-while') await service.request('DELETE', '/__admin/faults');
      return { person, design, profile, engine };
    }

    it('the window\'s sign-in (account.signIn, the browser\'s answer): the waiting file is sent at once', async () => {
      const { person, design, engine } = await blockedEngine('resume-window');
      const endpoint = createContractEndpoint(engine);
      cleanups.push(() => endpoint.close());
      const started = await endpoint.handle('account.signIn', {});
      if (!started.ok) throw new Error(started.problem.message);
      await deliver((started.value as { authorizationUrl: string }).authorizationUrl, person.newToken(), { id: person.user.id, screen_name: 'resume-window' });

      await until('the waiting file on the service', async () => (await documentNames(person.newToken(), design.id)).includes('clamp.stl'), 20_000);
      expect(engine.sync.syncParts().runner.blockedBy).toBeNull();
      expect(engine.account.session.state.status).toBe('signed-in');
    }, 60_000);

    it('a sign-in stored by another engine on the same profile (`login` from the CLI): taken up at once', async () => {
      const { person, design, profile, engine } = await blockedEngine('resume-cli');
      const login = await runCliCapturing(profile, ['login', '--with-token'], person.newToken());
      expect(login.code, login.err).toBe(0);

      await until('the waiting file on the service', async () => (await documentNames(person.newToken(), design.id)).includes('clamp.stl'), 20_000);
      expect(engine.account.session.state.status).toBe('signed-in');
      expect(engine.sync.syncParts().runner.blockedBy).toBeNull();
    }, 60_000);

    it('the same token signed in again after the service refused it for a while (the service may give it back): taken up at once', async () => {
      const { person, design, profile, engine } = await blockedEngine('resume-same-token', service.url, 'refused-for-a-while');
      // The refused token is not taken up again on its own: it waits for the person.
      expect(engine.account.session.state.status).toBe('needs-sign-in');
      const login = await runCliCapturing(profile, ['login', '--with-token'], person.token);
      expect(login.code, login.err).toBe(0);

      await until('the waiting file on the service', async () => (await documentNames(person.token, design.id)).includes('clamp.stl'), 20_000);
      expect(engine.account.session.state.status).toBe('signed-in');
      expect(engine.sync.syncParts().runner.blockedBy).toBeNull();
    }, 60_000);

    it('a token stored for another service is not taken up: only the next sign-in to its own service resumes the queue', async () => {
      // The profile's service is the local service behind a recording proxy: every request it gets is kept.
      const own = await startRecordingServer(service.url);
      cleanups.push(() => own.close());
      const { person, design, profile, engine } = await blockedEngine('resume-elsewhere', own.url);
      const elsewhere = await startTestService();
      cleanups.push(() => elsewhere.stop());
      const otherToken = elsewhere.addUser('someone-else').token;

      // Another process moves the profile to another service and signs in there, then comes back and signs in again.
      const away = await runCliCapturing(profile, ['--service', elsewhere.url, '--switch-service', 'login', '--with-token'], otherToken);
      expect(away.code, away.err).toBe(0);
      const back = await runCliCapturing(profile, ['--service', own.url, '--switch-service', 'login', '--with-token'], person.newToken());
      expect(back.code, back.err).toBe(0);

      await until('the waiting file on the service', async () => (await documentNames(person.newToken(), design.id)).includes('clamp.stl'), 20_000);
      expect(own.carrying(otherToken)).toEqual([]);
      expect(own.carrying(person.token).length).toBeGreaterThan(0); // the revoked one, refused, before the new sign-in
      expect(engine.account.session.state.status).toBe('signed-in');
    }, 60_000);
  });
});
