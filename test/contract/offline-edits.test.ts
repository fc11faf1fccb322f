import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractProblem, DesignDetail, OwnDesignView, QueueView, RequestName } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { getCachedDesign } from '../../electron/engine/cache/design-reads';
import { showEditInCache } from '../../electron/engine/runtime/design-edits';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startService, type RunningService } from '../../service/server/start-service';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { startTestService } from '../../harness/local-service';
import { until } from '../../harness/until';

let dataDir: string;
let service: RunningService;
let token: string;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let profile: string;
const ids: Record<string, number> = {};

async function ok<T>(name: RequestName, input: unknown): Promise<T> {
  const outcome = await endpoint.handle(name, input);
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.problem)}`);
  return outcome.value as T;
}

async function problem(name: RequestName, input: unknown): Promise<ContractProblem> {
  const outcome = await endpoint.handle(name, input);
  if (outcome.ok) throw new Error(`${name}: expected a problem`);
  return outcome.problem;
}

const edits = async () => (await ok<QueueView>('queue.list', { states: ['waiting', 'running', 'done', 'failed', 'attention'] })).items.filter((item) => item.kind === 'update-design');
const onService = (id: number) => service.db.prepare('SELECT name, excerpt, license FROM designs WHERE id = ?').get(id) as { name: string; excerpt: string; license: string } | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'design-sync-offline-edits-'));
  const first = await startTestService({ dataDir });
  service = first;
  token = first.addUser('maker').token;
  const maker = clientFor(service.url, token);
  ids.hinge = (await maker.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' })).id;
  ids.clamp = (await maker.createDesign({ name: 'Clamp', excerpt: 'A clamp', license: 'ccby' })).id;
  profile = tempDir('offline-edits');
  engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test',
    tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore(),
  });
  endpoint = createContractEndpoint(engine);
  await ok('sync.acceptContentPolicy', { accept: true });
  // The designs as the window knows them (read once while the service is there), then background work, with no sync folder.
  for (const id of [ids.hinge, ids.clamp]) await ok('own.update', { id, excerpt: id === ids.hinge ? 'A hinge' : 'A clamp' });
  await engine.startBackground();
}, 30_000);

afterAll(async () => {
  endpoint?.close();
  await engine?.close();
  await service?.close().catch(() => {});
  rmSync(profile, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('edits of a design made while the service is unreachable', () => {
  it('wait in the queue, show the edited values at once and say so; a later edit merges into the waiting one', async () => {
    const port = service.port;
    await service.close();

    const edited = await ok<OwnDesignView>('own.update', { id: ids.hinge, name: 'Hinge v2', excerpt: 'Edited offline', description: '<p>Written offline</p>' });
    expect(edited).toMatchObject({ note: expect.stringMatching(/Saved here/), card: { name: 'Hinge v2', excerpt: 'Edited offline' } });
    expect(edited.note).toMatch(/Saved here; it is sent when the service is back/);
    // The same as a code, for a front end to word in its language (the policy accepted, no file change waiting).
    expect(edited.notes).toEqual([{ kind: 'edits-waiting' }]);
    const again = await ok<OwnDesignView>('own.update', { id: ids.hinge, excerpt: 'Edited twice', license: 'ccbysa' });
    expect(again.card).toMatchObject({ name: 'Hinge v2', excerpt: 'Edited twice', license: { code: 'ccbysa' } });
    await ok('own.update', { id: ids.clamp, name: 'Clamp v2' });
    // The design's page (and an edit form opened from it) shows the waiting values, so a second edit never sends an older description.
    expect(await ok<DesignDetail>('design.get', { id: ids.hinge })).toMatchObject({ card: { name: 'Hinge v2' }, descriptionHtml: '<p>Written offline</p>' });

    const waiting = await edits();
    expect(waiting.map((item) => [item.designId, item.state])).toEqual([[ids.hinge, 'waiting'], [ids.clamp, 'waiting']]);
    expect(getCachedDesign(engine.cache.reader, ids.hinge!)!.summary).toMatchObject({ name: 'Hinge v2', excerpt: 'Edited twice', license: 'ccbysa' });
    const listed = await ok<OwnDesignView[]>('own.list', {});
    expect(listed.find((design) => design.card.id === ids.hinge)).toMatchObject({ note: expect.stringMatching(/Saved here/), notes: [{ kind: 'edits-waiting' }], card: { name: 'Hinge v2' } });

    // What needs the person and the service at once is not saved for later.
    expect(await problem('own.publish', { id: ids.hinge })).toMatchObject({ kind: 'offline' });
    expect(await problem('own.delete', { id: ids.clamp, confirm: true })).toMatchObject({ kind: 'offline' });
    expect(await problem('own.create', { name: 'Bracket', excerpt: 'A bracket' })).toMatchObject({ kind: 'offline' });

    // Back, with the queue paused a moment: the clamp is deleted on the service meanwhile.
    await ok('queue.pause', { target: 'all' });
    service = await startService({ dataDir, port });
    await clientFor(service.url, token).deleteDesign(ids.clamp!);
    await ok('queue.resume', { target: 'all' });

    await until('the service holds the edit', () => onService(ids.hinge!)?.name === 'Hinge v2');
    expect(onService(ids.hinge!)).toEqual({ name: 'Hinge v2', excerpt: 'Edited twice', license: 'ccbysa' });
    expect((service.db.prepare('SELECT description FROM designs WHERE id = ?').get(ids.hinge) as { description: string }).description).toBe('<p>Written offline</p>');
    await until('both edits ended', async () => (await edits()).every((item) => item.state === 'done' || item.state === 'failed'));
    const ended = await edits();
    expect(ended.find((item) => item.designId === ids.hinge)!.state).toBe('done');
    expect(ended.find((item) => item.designId === ids.clamp)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/“Clamp v2” is no longer on the service/) });
    // The cache follows the service: the sent edit as the service answered, the refused one's design gone.
    await until('the cache follows the service', () => getCachedDesign(engine.cache.reader, ids.clamp!) === null);
    expect(getCachedDesign(engine.cache.reader, ids.hinge!)!.summary.name).toBe('Hinge v2');
    const after = (await ok<OwnDesignView[]>('own.list', {})).find((design) => design.card.id === ids.hinge)!;
    expect(after).toMatchObject({ note: null, notes: [] });
  }, 60_000);

  it('an edit the service refuses when it is sent fails with the service\'s words, and the cache shows the service\'s values again', async () => {
    const port = service.port;
    await service.close();
    // Too long for the service's excerpt limit: the window's own check would refuse it first, so it is queued as the
    // engine queues an offline edit, to see what the service's refusal does.
    engine.queue.enqueueDesignEdit(ids.hinge!, { excerpt: 'x'.repeat(5_000) }, 'Hinge v2');
    showEditInCache(engine.cache.designs, ids.hinge!, { excerpt: 'x'.repeat(5_000) });
    expect(getCachedDesign(engine.cache.reader, ids.hinge!)!.summary.excerpt).toHaveLength(5_000);
    service = await startService({ dataDir, port });
    await until('the refusal', async () => (await edits()).some((item) => item.state === 'failed' && item.designId === ids.hinge));
    const refused = (await edits()).find((item) => item.state === 'failed' && item.designId === ids.hinge)!;
    expect(refused.reason).toMatch(/The service refused the edit of “Hinge v2”: Summary is too long/);
    expect(onService(ids.hinge!)!.excerpt).toBe('Edited twice');
    await until('the cache read again', () => getCachedDesign(engine.cache.reader, ids.hinge!)!.summary.excerpt === 'Edited twice');
  }, 60_000);
});
