import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileTokenStore } from '../../electron/engine/authorization/file-token-store';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { countCachedDesigns } from '../../electron/engine/cache/design-reads';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { SyncEngine, type PassResult } from '../../electron/engine/sync/sync-engine';
import { prepareUsers, startServiceProcess, type ServiceProcess } from '../../harness/service-process';
import { median, percentile, round, type ScenarioResult } from '../support/measure';
import { scratchDir } from '../support/service';

const CATALOGUES = [100, 100_000] as const;
const OWN_DESIGNS = 5;
const WARM_UP_PASSES = 3;
const PASSES = 20;
const FIXTURES = join(import.meta.dirname, '../../test/fixtures');

interface Setup {
  catalogue: number;
  engine: SyncEngine;
  pass(): Promise<PassResult>;
  dispose(): Promise<void>;
}

/**
 * One computer against one service: the service (in its own process) holds `catalogue` published designs of
 * other users (synthetic seeding) and OWN_DESIGNS designs of the signed-in user, each with an image and a
 * document (one of them a draft); the profile's sync folder is a real temp folder, synced once.
 */
async function setUp(catalogue: number): Promise<Setup> {
  const scratch = scratchDir(`sync-pass-${catalogue}`);
  const dataDir = join(scratch.path, 'service');
  mkdirSync(dataDir);
  const { syncer: token } = prepareUsers(dataDir, ['syncer']);
  let service: ServiceProcess | null = null;
  let opened: Engine | null = null;
  let engine: SyncEngine | null = null;
  const dispose = async () => {
    await opened?.close();
    await service?.stop();
    scratch.dispose();
  };
  try {
    service = await startServiceProcess({ dataDir, args: ['--synthetic', String(catalogue)] });
    const api = new ServiceClient({ baseUrl: service.url, token: () => token! });
    for (let i = 0; i < OWN_DESIGNS; i++) {
      const design = await api.createDesign({ name: `Own part ${i}`, excerpt: 'bench', license: 'cc0' });
      await api.uploadImage(design.id, { path: join(FIXTURES, 'images', 'jpg-sample.jpg') });
      await api.uploadDocument(design.id, { path: join(FIXTURES, 'models', 'cube.stl') });
      if (i > 0) await api.publishDesign(design.id);
    }

    // The product's own path: the profile's engine, opened as every front end opens it, and its sync engine.
    const profileDir = join(scratch.path, 'profile');
    opened = await openEngine({
      profileDir, serviceUrl: service.url, userAgent: 'design-sync-bench',
      tokenStore: (paths) => new FileTokenStore(paths.tokenFile), settingsStore: () => memorySettingsStore(),
    });
    await opened.account.session.signInWithToken(service.url, token!);
    const openCache = opened.cache;
    engine = opened.sync.syncParts().sync;
    const root = join(scratch.path, 'Designs');
    await opened.sync.chooseFolder(root);

    const first = await engine.syncOnce({ settle: 'wait' });
    if (first.stopped || first.remoteSkipped) throw new Error(`the first sync failed: ${first.stopped ?? first.remoteSkipped}`);
    const folders = readdirSync(root).filter((name) => !name.startsWith('.'));
    const files = folders.reduce((n, folder) => n + readdirSync(join(root, folder)).length, 0);
    if (folders.length !== OWN_DESIGNS || files !== OWN_DESIGNS * 2) throw new Error(`the first sync made ${folders.length} folders with ${files} files, expected ${OWN_DESIGNS} with ${OWN_DESIGNS * 2}`);
    if (countCachedDesigns(openCache.reader) !== OWN_DESIGNS) throw new Error(`the cache holds ${countCachedDesigns(openCache.reader)} designs: a sync pass must pull only the own ${OWN_DESIGNS}`);

    const ready = engine;
    return {
      catalogue, engine: ready, dispose,
      async pass() {
        const result = await ready.syncOnce({ settle: 'wait' });
        const remote = result.remote;
        const changed = !remote || remote.downloaded + remote.replaced + remote.renamed + remote.trashed + remote.conflicts + remote.adopted > 0
          || remote.designs !== OWN_DESIGNS || !result.scan || result.scan.enqueued > 0 || result.scan.unchanged !== OWN_DESIGNS * 2
          || result.createdFolders.length > 0;
        if (result.stopped || result.remoteSkipped || changed) throw new Error(`a pass with nothing changed did something: ${JSON.stringify(result)}`);
        return result;
      },
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * A sync pass with nothing changed (the opened engine's `SyncEngine.syncOnce()`, as every front end runs it: own designs pulled
 * with pullOwnDesigns, their folders, the service's changes, the folder's scan), against a catalogue of 100
 * and of 100,000 published designs of other users. Its cost must not follow the catalogue's size. Passes
 * alternate between the two setups, so that drift on the machine touches both alike.
 */
export async function syncPassScenario(): Promise<ScenarioResult> {
  const setups: Setup[] = [];
  try {
    for (const catalogue of CATALOGUES) setups.push(await setUp(catalogue));
    for (let i = 0; i < WARM_UP_PASSES; i++) for (const setup of setups) await setup.pass();
    const samples = new Map<number, number[]>(setups.map((setup) => [setup.catalogue, []]));
    for (let i = 0; i < PASSES; i++) {
      for (const setup of i % 2 === 0 ? setups : [...setups].reverse()) {
        const started = performance.now();
        await setup.pass();
        samples.get(setup.catalogue)!.push(performance.now() - started);
      }
    }
    const [small, large] = CATALOGUES.map((catalogue) => samples.get(catalogue)!);
    const ratio = median(large!) / median(small!);
    const label = (catalogue: number) => (catalogue >= 1000 ? `${catalogue / 1000}k` : String(catalogue));
    return {
      name: 'sync-pass',
      description: `a sync pass with nothing changed (the opened engine's sync engine: pullOwnDesigns + ownDesignRefs), ${OWN_DESIGNS} own designs × 2 files, ` +
        `catalogue of ${CATALOGUES[0]} vs ${CATALOGUES[1]} published designs of others; ${PASSES} passes each after ${WARM_UP_PASSES} warm-up`,
      metrics: {
        ownDesigns: OWN_DESIGNS,
        [`medianMs${label(CATALOGUES[0])}`]: round(median(small!), 1),
        [`p95Ms${label(CATALOGUES[0])}`]: round(percentile(small!, 95), 1),
        [`medianMs${label(CATALOGUES[1])}`]: round(median(large!), 1),
        [`p95Ms${label(CATALOGUES[1])}`]: round(percentile(large!, 95), 1),
        ratio: round(ratio, 2),
      },
      goals: [{ metric: 'ratio', target: '≤ 1.2', met: ratio <= 1.2 }],
    };
  } finally {
    for (const setup of setups) await setup.dispose();
  }
}
