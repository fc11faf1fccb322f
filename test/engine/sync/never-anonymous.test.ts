import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findApplication, liveAuthorization, REGISTERED_APPLICATION, revokeAuthorization } from '../../../service/authorization/integrations';
import { startTestService, type TestService } from '../../../harness/local-service';
import { openProfile } from '../../../harness/profile';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { startCountingProxy } from '../../../harness/counting-proxy';
import { clientFor } from '../../../harness/sync-computers';

/**
 * Sync never reads the service without the sign-in. Once the service refuses the token, public reads would still be
 * answered, anonymously: a draft is then missing from the own designs and answers 404, as if deleted. Sync's reads
 * must refuse to go out instead, or a refused sign-in trashes (or stops syncing) the person's design folders.
 * (Seen as a flaky `sign-in-resume` test: the queue's refused upload moved the session to needs-sign-in while a pass
 * was under way, and the pass's next reads went out without the token.)
 */
let service: TestService;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  service = await startTestService();
  proxy = await startCountingProxy(service.url);
});
afterAll(async () => {
  await proxy.close();
  await service.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('sync after the service refused the sign-in', () => {
  it('does not take a draft for deleted from an anonymous answer: its folder stays, linked, and nothing is asked without the token', async () => {
    const { user, token } = service.addUser('refused');
    const draft = await clientFor(service.url, token).createDesign({ name: 'Bracket', excerpt: 'Holds a shelf', license: 'cc0' });
    const root = join(tempDir('anonymous-root'), 'Designs');
    const { engine, close } = await openProfile({ serviceUrl: proxy.url, settleMs: 100, remotePollMs: 60_000, token });
    cleanups.push(() => rmSync(join(root, '..'), { recursive: true, force: true }), close);
    engine.sync.acceptContentPolicy();
    await engine.sync.chooseFolder(root);
    await engine.startBackground();
    const { sync } = engine.sync.syncParts();
    const { folder } = await until('the draft\'s folder', () => sync.folders.ofDesign(draft.id));

    // The token is revoked on the service; a request of the engine's meets the refusal (as the queue's upload did).
    const app = findApplication(service.db, REGISTERED_APPLICATION)!;
    expect(revokeAuthorization(service.db, user.id, liveAuthorization(service.db, user.id, app.id)!.id, Date.now())).toBe(true);
    await engine.connection.client().whoami().catch(() => undefined);
    expect(engine.account.session.state.status).toBe('needs-sign-in');
    const asked = proxy.seen.length;

    // What the remote watch does when a design vanished from the list: it asks the service for the design first.
    await expect(sync.designGone(draft.id)).rejects.toMatchObject({ problem: { kind: 'token-rejected' } });
    await sync.syncDesigns([draft.id]);
    await sync.syncOnce();

    expect(existsSync(join(root, folder))).toBe(true);
    expect(sync.folders.ofDesign(draft.id)).toMatchObject({ folder, state: 'linked' });
    expect(engine.queue.recentActivity(100).map((entry) => entry.message).join('\n')).not.toMatch(/deleted on the service/);
    // Nothing of the service's own addresses was asked anonymously for sync (an anonymous GET of the draft is a 404).
    // (A request of the first pass sent with the token before it was revoked may be answered, 401, after `asked`.)
    const ownAddresses = (request: { path: string }) => request.path.startsWith('/v1/designs/') || request.path.startsWith(`/v1/users/${user.id}/designs`);
    expect(proxy.seen.filter((request) => request.anonymous && ownAddresses(request))).toEqual([]);
    expect(proxy.seen.slice(asked).filter((request) => ownAddresses(request) && request.status !== 401)).toEqual([]);
  }, 60_000);
});
