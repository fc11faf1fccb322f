import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { CONTRACT_REQUEST_CHANNEL } from '../../shared';
import { createContractEndpoint } from '../../electron/engine/contract/create-contract-endpoint';
import { registerContractIpc } from '../../electron/shell/ipc/contract-ipc';
import { chromiumSkipReason } from '../../harness/chromium';
import { tempDir } from '../engine/cache/cache-fixtures';
import { clientFor } from '../../harness/sync-computers';
import { recordedArguments, recordingProgram, writeEntry } from '../engine/slicers/slicer-fixtures';
import { openWindow, type WindowFixture } from '../../harness/window';
import { StoppableService } from './stoppable-service';

// The shell's IPC handler needs only Electron's types; the real module would download its binary.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

/**
 * "Open in your slicer" as the desktop app's window does it: the page's contract goes through the shell's own IPC
 * handler (registerContractIpc, Electron's shell.openPath recorded) to the engine, as the preload would carry it. The
 * slicers are desktop entries whose programs are real scripts that record the arguments they are started with.
 */
const MODELS = join(import.meta.dirname, '../fixtures/models');
type IpcHandler = (event: unknown, name: unknown, input: unknown) => Promise<unknown>;

let app: WindowFixture;
let page: Page;
let endpoint: ReturnType<typeof createContractEndpoint>;
let desktop: string;
const service = new StoppableService();
const records = { orca: '', recorder: '' };
const openedPaths: string[] = [];
let designId = 0;


/** Gearbox's page, loaded afresh (a new document: the stand-in preload is in it from the start). */
async function onGearbox(): Promise<void> {
  await page.goto(`${app.host.origin}/#/designs/${designId}`);
  await page.reload();
  await page.getByRole('heading', { name: 'Gearbox', level: 2 }).waitFor({ timeout: 10_000 });
}

describe.skipIf(chromiumSkipReason !== undefined)('a model file opened in the person\'s slicer from the desktop app\'s window', () => {
  beforeAll(async () => {
    desktop = tempDir('slicer-window-desktop');
    const bin = join(desktop, 'bin');
    mkdirSync(bin);
    records.orca = join(desktop, 'orca.txt');
    records.recorder = join(desktop, 'recorder.txt');
    recordingProgram(join(bin, 'orca-slicer'), records.orca);
    recordingProgram(join(bin, 'mesh-recorder'), records.recorder);
    writeEntry(join(desktop, 'data-home/applications'), 'OrcaSlicer.desktop', `[Desktop Entry]\nType=Application\nName=OrcaSlicer\nExec=${join(bin, 'orca-slicer')} %F\nMimeType=model/stl;model/3mf;\n`);
    writeEntry(join(desktop, 'data-dir/applications'), 'mesh-recorder.desktop', `[Desktop Entry]\nType=Application\nName=Mesh Recorder\nExec=${join(bin, 'mesh-recorder')} %f\nMimeType=model/3mf;\n`);
    vi.stubEnv('XDG_DATA_HOME', join(desktop, 'data-home'));
    vi.stubEnv('XDG_DATA_DIRS', join(desktop, 'data-dir'));

    app = await openWindow(async (service) => {
      const carol = clientFor(service.url, service.addUser('carol').token);
      const design = await carol.createDesign({ name: 'Gearbox', excerpt: 'A gearbox', license: 'ccby' });
      // An image of its own: the window draws no cover from its models (which would fetch them).
      await carol.uploadImage(design.id, { path: join(MODELS, '../images/png-sample.png') });
      await carol.uploadDocument(design.id, { path: join(MODELS, 'cube20.3mf') }, { name: 'Gearbox (3MF)' });
      await carol.uploadDocument(design.id, { path: join(MODELS, 'cube.stl') }, { name: 'Gearbox (STL)' });
      await carol.publishDesign(design.id);
      designId = design.id;
    }, { serviceDataDir: service.dataDir });
    page = app.page;
    service.of(app);
    await page.setViewportSize({ width: 1400, height: 900 });

    // The main process's handler, as the shell registers it, with shell.openPath recorded.
    endpoint = createContractEndpoint(app.engine);
    let handler: IpcHandler | null = null;
    registerContractIpc({ handle: (channel: string, fn: IpcHandler) => { if (channel === CONTRACT_REQUEST_CHANNEL) handler = fn; }, removeHandler: () => {} } as never, {
      isTrusted: () => true,
      request: (name, input) => endpoint.handle(name, input),
      openPath: async (path) => {
        openedPaths.push(path);
        return '';
      },
      log: () => {},
    });
    await page.exposeBinding('designSyncIpc', (_source, name: unknown, input: unknown) => handler!({}, name, input));
    await page.addInitScript(() => {
      const page = globalThis as unknown as Record<string, unknown> & { designSyncIpc(name: unknown, input: unknown): Promise<unknown> };
      const listeners = new Map<string, Set<(payload: unknown) => void>>();
      page.designSync = {
        request: (name: unknown, input: unknown) => page.designSyncIpc(name, input),
        on: (name: string, listener: (payload: unknown) => void) => {
          if (!listeners.has(name)) listeners.set(name, new Set());
          listeners.get(name)!.add(listener);
          return () => listeners.get(name)!.delete(listener);
        },
      };
      // The main process's sendContractEvent, as the preload delivers it.
      page.designSyncEvent = (name: string, payload: unknown) => {
        for (const listener of listeners.get(name) ?? []) listener(payload);
      };
    });
    endpoint.subscribe((event) => {
      void page.evaluate(([name, payload]) => (globalThis as unknown as { designSyncEvent?(name: unknown, payload: unknown): void }).designSyncEvent?.(name, payload), [event.name, event.payload] as const).catch(() => {
        // The page was between two documents: it reads its state afresh when it loads.
      });
    });
  }, 90_000);

  afterAll(async () => {
    vi.unstubAllEnvs();
    await endpoint?.close();
    await app?.close();
    await service.close();
    rmSync(desktop, { recursive: true, force: true });
  });

  // Each test starts with the service up, no choice remembered and nothing recorded.
  beforeEach(async () => {
    await service.answering();
    app.engine.appSettings.store.update({ openModelWith: undefined });
    rmSync(records.orca, { force: true });
    rmSync(records.recorder, { force: true });
    openedPaths.length = 0;
  });

  it('offers "Open in OrcaSlicer" with the others found; the one chosen gets a file not kept, fetched first, and is remembered', async () => {
    await onGearbox();
    const open = page.getByRole('button', { name: 'Open Gearbox (3MF) in OrcaSlicer' });
    await open.waitFor();
    const chooser = page.getByRole('combobox', { name: 'Open Gearbox (3MF) with' });
    expect(await chooser.locator('option').allTextContents()).toEqual(['OrcaSlicer', 'Mesh Recorder', 'System default app']);
    await chooser.selectOption({ label: 'Mesh Recorder' });
    await page.getByRole('button', { name: 'Open Gearbox (3MF) in Mesh Recorder' }).click();
    const row = page.locator('.design-documents tbody tr').filter({ hasText: 'Gearbox (3MF)' });
    await row.getByRole('status').getByText('Opened in Mesh Recorder.').waitFor();
    // Fetched for it, the file is kept offline now, and its row says so.
    await row.locator('td.document-offline').getByText('Kept offline', { exact: true }).waitFor();
    const [file] = await recordedArguments(records.recorder);
    expect(basename(file!)).toBe('cube20.3mf');
    expect(readFileSync(file!)).toEqual(readFileSync(join(MODELS, 'cube20.3mf')));

    // Remembered: the page drawn again opens it in Mesh Recorder.
    await page.reload();
    await page.getByRole('button', { name: 'Open Gearbox (3MF) in Mesh Recorder' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Open Gearbox (3MF) with' }).inputValue()).toBe('desktop:mesh-recorder.desktop');
  });

  it('hands the file to the system\'s default app through the shell, never showing the page its path', async () => {
    await onGearbox();
    await page.getByRole('combobox', { name: 'Open Gearbox (3MF) with' }).selectOption({ label: 'System default app' });
    await page.getByRole('button', { name: 'Open Gearbox (3MF) in your slicer' }).click();
    const row = page.locator('.design-documents tbody tr').filter({ hasText: 'Gearbox (3MF)' });
    await row.getByRole('status').getByText('Opened in your slicer.').waitFor();
    expect(openedPaths.map((path) => basename(path))).toEqual(['cube20.3mf']);
    expect(await page.content()).not.toContain(openedPaths[0]!);
  });

  it('says so, in the row, when a file not kept offline cannot be fetched', async () => {
    await onGearbox();
    await service.stopped();
    expect(await page.getByRole('combobox', { name: 'Open Gearbox (STL) with' }).inputValue()).toBe('desktop:OrcaSlicer.desktop');
    await page.getByRole('button', { name: 'Open Gearbox (STL) in OrcaSlicer' }).click();
    const row = page.locator('.design-documents tbody tr').filter({ hasText: 'Gearbox (STL)' });
    await row.getByRole('status').getByText(/^cube\.stl is not kept offline, and the service cannot be reached to get it\./).waitFor({ timeout: 10_000 }).catch(async (error) => {
      throw new Error(`${String(error)}\nrow: ${await row.textContent()}`);
    });
    expect(() => readFileSync(records.orca)).toThrow();
  });
});
