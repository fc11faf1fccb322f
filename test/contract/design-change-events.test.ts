import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractEvents, ContractProblem, EventName, OwnDesignView, QueueView, RequestName } from '../../shared';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { EventMessage } from '../../electron/engine/contract/contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { startTestService, type TestService } from '../../harness/local-service';
import { until } from '../../harness/until';

let service: TestService;
let token: string;

/** One engine and its contract endpoint, with every event it sends kept. */
interface Opened {
  engine: Engine;
  endpoint: ReturnType<typeof createContractEndpoint>;
  events: EventMessage[];
  profile: string;
  ok<T>(name: RequestName, input: unknown, signal?: AbortSignal): Promise<T>;
  problem(name: RequestName, input: unknown, signal?: AbortSignal): Promise<ContractProblem>;
  /** The first event named `name` since `from` (an index in `events`) that `matches`, waited for. */
  event<E extends EventName>(name: E, matches: (payload: ContractEvents[E]) => boolean, from?: number): Promise<ContractEvents[E]>;
  close(): Promise<void>;
}

async function open(options: { signedIn: boolean; settleMs?: number }): Promise<Opened> {
  const profile = tempDir('design-change-events');
  const engine = await openEngine({
    profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-test', settleMs: options.settleMs ?? 100, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(options.signedIn ? token : null), settingsStore: () => memorySettingsStore(),
  });
  const endpoint = createContractEndpoint(engine);
  const events: EventMessage[] = [];
  endpoint.subscribe((event) => events.push(event));
  return {
    engine, endpoint, events, profile,
    async ok(name, input, signal) {
      const outcome = await endpoint.handle(name, input, signal);
      if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.problem)}`);
      return outcome.value as never;
    },
    async problem(name, input, signal) {
      const outcome = await endpoint.handle(name, input, signal);
      if (outcome.ok) throw new Error(`${name}: expected a problem`);
      return outcome.problem;
    },
    event(name, matches, from = 0) {
      return until(`the event ${name}`, () => {
        const found = events.slice(from).find((event) => event.name === name && matches(event.payload as never));
        return found ? (found.payload as ContractEvents[typeof name]) : null;
      }, 15_000);
    },
    async close() {
      await endpoint.close();
      await engine.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const activity = async (app: Opened) => (await app.ok<QueueView>('queue.list', {})).activity.map((line) => line.message);
const viewOf = (change: ContractEvents['own.changed'], id: number) => change.designs.find((design) => design.card.id === id);

beforeAll(async () => {
  service = await startTestService({ faultInjection: true });
  token = service.addUser('maker').token;
}, 30_000);

afterAll(async () => {
  await service?.stop();
});

describe('what the window is told when designs change', () => {
  it('create, edit, publish and delete each send own.changed and designs.changed with the design\'s id, and each is in the activity list', async () => {
    const app = await open({ signedIn: true });
    try {
      let from = app.events.length;
      const created = await app.ok<OwnDesignView>('own.create', { name: 'Shelf bracket', excerpt: 'Holds a shelf', license: 'cc0' });
      const id = created.card.id;
      expect(viewOf(await app.event('own.changed', (change) => viewOf(change, id) !== undefined, from), id)).toMatchObject({ published: false, card: { name: 'Shelf bracket' } });
      await app.event('designs.changed', (change) => change.ids.includes(id), from);

      from = app.events.length;
      await app.ok('own.update', { id, name: 'Shelf bracket v2', excerpt: 'Holds a heavier shelf' });
      expect(viewOf(await app.event('own.changed', (change) => viewOf(change, id)?.card.name === 'Shelf bracket v2', from), id)!.card.excerpt).toBe('Holds a heavier shelf');
      await app.event('designs.changed', (change) => change.ids.includes(id), from);

      from = app.events.length;
      await app.ok('own.publish', { id });
      await app.event('own.changed', (change) => viewOf(change, id)?.published === true, from);

      from = app.events.length;
      await app.ok('own.delete', { id, confirm: true });
      await app.event('own.changed', (change) => change.removed.includes(id), from);
      await app.event('designs.changed', (change) => change.removed.includes(id), from);

      expect(await activity(app)).toEqual(expect.arrayContaining([
        'You created the design “Shelf bracket” as a draft.',
        'You changed the design “Shelf bracket v2” (name, summary).',
        'You published the design “Shelf bracket v2”.',
        'You deleted the design “Shelf bracket v2” on the service.',
      ]));
      // Each action is said once, and the window heard each line as it was written.
      expect((await activity(app)).filter((line) => line.startsWith('You published'))).toHaveLength(1);
      expect(app.events.filter((event) => event.name === 'activity').map((event) => (event.payload as { message: string }).message))
        .toContain('You deleted the design “Shelf bracket v2” on the service.');
    } finally {
      await app.close();
    }
  }, 30_000);

  it('a design added on the service for the signed-in user reaches My designs after a pull of the catalogue, with its id', async () => {
    const app = await open({ signedIn: true });
    try {
      expect(await app.ok<OwnDesignView[]>('own.list', {})).toBeDefined();
      const added = await clientFor(service.url, token).createDesign({ name: 'Cable clip', excerpt: 'Clips a cable', license: 'cc0' });
      const from = app.events.length;
      await app.ok('catalogue.pull', {});
      expect(viewOf(await app.event('own.changed', (change) => viewOf(change, added.id) !== undefined, from), added.id)).toMatchObject({ card: { name: 'Cable clip' }, published: false });
      await app.event('designs.changed', (change) => change.all, from);
      expect((await app.ok<OwnDesignView[]>('own.list', {})).map((design) => design.card.name)).toContain('Cable clip');
    } finally {
      await app.close();
    }
  }, 30_000);

  it('right after sign-in the own designs are read, drafts included, and told', async () => {
    const draft = await clientFor(service.url, token).createDesign({ name: 'Draft hook', excerpt: 'Not published yet', license: 'cc0' });
    const app = await open({ signedIn: false });
    try {
      await app.ok('catalogue.pull', {});
      expect((await app.ok<OwnDesignView[]>('own.list', {})).map((design) => design.card.id)).not.toContain(draft.id);
      const from = app.events.length;
      await app.engine.account.session.signInWithToken(service.url, token);
      await app.event('own.changed', (change) => viewOf(change, draft.id) !== undefined, from);
      expect((await app.ok<OwnDesignView[]>('own.list', {})).map((design) => design.card.name)).toContain('Draft hook');
    } finally {
      await app.close();
    }
  }, 30_000);

  it('a design created for a new folder of the sync folder is told to My designs once the queue made it', async () => {
    const app = await open({ signedIn: true, settleMs: 50 });
    const root = tempDir('design-change-events-root');
    try {
      await app.ok('sync.acceptContentPolicy', { accept: true });
      await app.ok('sync.chooseFolder', { path: root });
      await app.ok('sync.start', {});
      mkdirSync(join(root, 'Desk organizer'));
      const proposal = await until('the new folder proposed as a design', async () =>
        (await app.ok<QueueView>('queue.list', {})).items.find((item) => item.kind === 'create-design' && item.state === 'attention'));
      const from = app.events.length;
      await app.ok('queue.confirmDesign', { id: proposal.id, name: 'Desk organizer', excerpt: 'Keeps pens in order', license: 'cc0' });
      const change = await app.event('own.changed', (told) => told.designs.some((design) => design.card.name === 'Desk organizer'), from);
      const made = change.designs.find((design) => design.card.name === 'Desk organizer')!;
      expect((await app.ok<OwnDesignView[]>('own.list', {})).map((design) => design.card.id)).toContain(made.card.id);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 40_000);

  it('a pass that finds a design\'s folder in step tells My designs its last sync, whatever the sync view said before', async () => {
    const draft = await clientFor(service.url, token).createDesign({ name: 'Spacer', excerpt: 'Spaces things', license: 'cc0' });
    const app = await open({ signedIn: true });
    const root = tempDir('design-change-events-scan');
    try {
      await app.engine.catalogue.pullNow();
      await app.engine.sync.chooseFolder(root);
      app.engine.sync.acceptContentPolicy();
      const from = app.events.length;
      await app.engine.sync.syncParts().sync.syncOnce({ settle: 'wait' });
      // The window hears of it from the design's own view: no sync.changed needs to be compared with an earlier one.
      const told = await app.event('own.changed', (change) => viewOf(change, draft.id)?.lastSyncedAt != null, from);
      const view = viewOf(told, draft.id)!;
      expect(view.folderState).toBe('in-step');
      expect(Date.parse(view.lastSyncedAt!)).toBe(app.engine.queue.status().lastScanAt);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('a design deleted in the window', () => {
  it('has its folder in the sync folder handled at once, not at the next rescan', async () => {
    const app = await open({ signedIn: true, settleMs: 50 });
    const root = tempDir('design-change-events-delete');
    try {
      await app.ok('sync.acceptContentPolicy', { accept: true });
      await app.ok('sync.chooseFolder', { path: root });
      const created = await app.ok<OwnDesignView>('own.create', { name: 'Lamp arm', excerpt: 'Holds a lamp', license: 'cc0' });
      await app.engine.sync.syncParts().sync.syncOnce({ settle: 'once' });
      const folder = await until('the design\'s folder', () => app.engine.sync.syncParts().sync.folders.ofDesign(created.card.id)?.folder);
      expect(existsSync(join(root, folder))).toBe(true);
      await app.ok('own.delete', { id: created.card.id, confirm: true });
      await until('the folder handled', () => !existsSync(join(root, folder)), 10_000);
    } finally {
      await app.close();
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('requests that are no longer wanted', () => {
  const slowSearch = async (ms: number) => {
    const answer = await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms, method: 'GET', path: '^/v1/designs/search$', count: 1 } });
    return ((await answer.json()) as { id: number }[] | { id: number });
  };
  const hits = async () => ((await (await service.request('GET', '/__admin/faults')).json()) as { kind: string; hits: number }[]).filter((rule) => rule.kind === 'latency').reduce((sum, rule) => sum + rule.hits, 0);

  it('a newer search of the service stops the one before it: its request is aborted, it ends cancelled at once', async () => {
    const app = await open({ signedIn: true });
    try {
      const before = await hits();
      await slowSearch(20_000);
      const started = Date.now();
      const first = app.endpoint.handle('library.searchService', { query: 'first' });
      // The first request reached the service and is held there.
      await until('the first search at the service', async () => (await hits()) > before);
      const second = await app.ok<{ found: number }>('library.searchService', { query: 'second' });
      expect(second.found).toBe(0);
      expect(await first).toMatchObject({ ok: false, problem: { kind: 'cancelled' } });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await app.close();
    }
  }, 30_000);

  it('a request whose window went away is stopped', async () => {
    const app = await open({ signedIn: true });
    try {
      const before = await hits();
      await slowSearch(20_000);
      const gone = new AbortController();
      const started = Date.now();
      const asked = app.problem('library.searchService', { query: 'nobody waits' }, gone.signal);
      await until('the search at the service', async () => (await hits()) > before);
      gone.abort();
      expect(await asked).toMatchObject({ kind: 'cancelled' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await app.close();
    }
  }, 30_000);
});
