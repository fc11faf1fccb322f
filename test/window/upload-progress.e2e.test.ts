import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { chromiumSkipReason, launchChromium, type LaunchedChromium } from '../../harness/chromium';
import { startTestService, type TestService } from '../../harness/local-service';
import { startThrottledLink, type ThrottledLink } from '../../harness/throttled-link';
import { until } from '../../harness/until';
import { buildWindow, type BuiltWindow } from '../../harness/window-build';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { windowStarted } from '../../harness/window';
import { showView } from './views';

/**
 * The window of harness/window.ts, on a service started with fault injection (its uploads are held a while, so that
 * their progress can be seen), reached through a link whose uplink can be slowed.
 */
let service: TestService;
let link: ThrottledLink;
let engine: Engine;
let endpoint: ReturnType<typeof createContractEndpoint>;
let host: WindowHost;
let chromium: LaunchedChromium;
let page: Page;
let built: BuiltWindow | undefined;
let hingeId: number;
let latchId: number;
let makerToken: string;
const profile = tempDir('window-progress-profile');
const rootParent = tempDir('window-progress-root');

describe.skipIf(chromiumSkipReason !== undefined)('upload progress in the window, in Chromium', () => {
  beforeAll(async () => {
    service = await startTestService({ faultInjection: true });
    makerToken = service.addUser('maker').token;
    const maker = clientFor(service.url, makerToken);
    const hinge = await maker.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
    await maker.publishDesign(hinge.id);
    hingeId = hinge.id;
    const latch = await maker.createDesign({ name: 'Latch', excerpt: 'A latch', license: 'cc0' });
    await maker.publishDesign(latch.id);
    latchId = latch.id;
    built = await buildWindow();
    link = await startThrottledLink(new URL(service.url));
    engine = await openEngine({
      profileDir: profile, serviceUrl: link.url, userAgent: 'design-sync-test', settleMs: 200, trash: 'folder',
      tokenStore: () => new MemoryTokenStore(makerToken), settingsStore: () => memorySettingsStore(),
    });
    await engine.catalogue.pullNow();
    endpoint = createContractEndpoint(engine);
    host = await startWindowHost({ endpoint, staticDir: built.dir });
    chromium = await launchChromium();
    page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(host.url);
    await windowStarted(page);
    await engine.sync.chooseFolder(join(rootParent, 'Designs'));
    engine.sync.acceptContentPolicy();
    await engine.startBackground();
    await until('the designs\' folders', () => existsSync(join(rootParent, 'Designs', 'hinge')) && existsSync(join(rootParent, 'Designs', 'latch')));
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await host?.close();
    await endpoint?.close();
    await engine?.close();
    await link?.close();
    await service?.stop().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    rmSync(rootParent, { recursive: true, force: true });
    built?.remove();
  });

  it('says "Uploading n of 2" with the bytes in the header, and each file\'s percentage in the queue list', async () => {
    await showView(page, host.origin, '#/sync');
    await page.getByRole('heading', { name: 'Sync', level: 2 }).waitFor();
    // Each upload is held by the service for seconds before it is read (for this test only, whatever its outcome).
    onTestFinished(async () => { expect((await service.request('DELETE', '/__admin/faults')).status).toBe(204); });
    expect((await service.request('POST', '/__admin/faults', { json: { kind: 'latency', ms: 4_000, method: 'POST', path: '/documents$' } })).status).toBe(201);
    for (const name of ['left', 'right']) writeFileSync(join(rootParent, 'Designs', 'hinge', `${name}.stl`), randomBytes(3 * 1024 * 1024));

    const summary = page.getByTestId('upload-progress-summary');
    await summary.filter({ hasText: /^Uploading [12] of 2 · [\d.]+ (B|KB|MB) of [\d.]+ MB/ }).waitFor({ timeout: 30_000 });
    const sending = page.getByTestId('queue-item').filter({ hasText: /\.stl/ }).filter({ has: page.getByRole('progressbar') }).first();
    await sending.getByTestId('file-progress').filter({ hasText: /^\d{1,3}% · [\d.]+ (B|KB|MB) of 3 MB/ }).waitFor({ timeout: 15_000 });
    const bar = sending.getByRole('progressbar');
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^\d{1,3}% · [\d.]+ (B|KB|MB) of 3 MB/);

    // Once both are on the service, the header says nothing more about uploads.
    const api = clientFor(service.url, makerToken);
    await until('both uploads', async () => (await api.listDocuments(hingeId)).length === 2, 40_000);
    await summary.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByText('Nothing to send.').waitFor();
  }, 90_000);

  it('says each file\'s rate, and the time left of them all, while a slow uplink sends them', async () => {
    await showView(page, host.origin, '#/sync');
    await page.getByRole('heading', { name: 'Sync', level: 2 }).waitFor();
    const api = clientFor(service.url, makerToken);
    // Large enough to outlast what the system's socket buffers take at once (several MB on loopback).
    link.setUploadRate(768 * 1024);
    try {
      for (const name of ['top', 'bottom']) writeFileSync(join(rootParent, 'Designs', 'latch', `${name}.stl`), randomBytes(12 * 1024 * 1024));
      const summary = page.getByTestId('upload-progress-summary');
      await summary.filter({ hasText: /^Uploading [12] of 2 · [\d.]+ (B|KB|MB) of [\d.]+ MB · (about \d+ (s|min) left|a few seconds left)$/ }).waitFor({ timeout: 30_000 });
      const sending = page.getByTestId('queue-item').filter({ hasText: /\.stl/ }).filter({ has: page.getByRole('progressbar') }).first();
      await sending.getByTestId('file-progress').filter({ hasText: /^\d{1,2}% · [\d.]+ (B|KB|MB) of 12 MB · [\d.]+ (B|KB|MB)\/s$/ }).waitFor({ timeout: 15_000 });
    } finally {
      link.setUploadRate(null);
    }
    await until('both uploads', async () => (await api.listDocuments(latchId)).length === 2, 60_000);
    await page.getByText('Nothing to send.').waitFor({ timeout: 15_000 });
  }, 90_000);
});
