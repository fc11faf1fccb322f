import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the layer rule', () => {
  it.each([
    ['shared/x.ts', "import { startService } from '../service/server/start-service';\nexport const x = startService;"],
    ['renderer/x.ts', "import { startService } from '../service/server/start-service';\nexport const x = startService;"],
    ['service/x.ts', "import { startTestService } from '../harness/local-service';\nexport const y = startTestService;"],
    ['electron/engine/x.ts', "import { startService } from '../../service/server/start-service';\nexport const x = startService;"],
  ])('refuses an import across layers in %s', async (filePath, code) => {
    expect((await problems(filePath, code)).join('\n')).toMatch(/import-x\/no-restricted-paths/);
  });

  it.each(['service/x.ts', 'renderer/x.ts', 'shared/x.ts', 'electron/engine/x.ts'])('refuses electron outside the shell in %s', async (filePath) => {
    expect((await problems(filePath, "import { app } from 'electron';\nexport const x = app;")).join('\n')).toMatch(/no-restricted-imports/);
  });

  it.each([
    ['electron/engine/queue/x.ts', "import { SyncEngine } from '../sync/sync-engine';\nexport const x = SyncEngine;"],
    ['electron/engine/sync-state/x.ts', "import { QueueStore } from '../queue/queue-store';\nexport const x = QueueStore;"],
    ['electron/engine/api/x.ts', "import { Session } from '../authorization/session';\nexport const x = Session;"],
    ['electron/engine/cache/x.ts', "import { QueueStore } from '../queue/queue-store';\nexport const x = QueueStore;"],
    ['electron/engine/sync/x.ts', "import { openEngine } from '../runtime/open-engine';\nexport const x = openEngine;"],
    ['electron/engine/runtime/x.ts', "import { OwnDesigns } from '../own-designs/own-designs';\nexport const x = OwnDesigns;"],
    ['electron/engine/cache/x.ts', "import { Library } from '../library/library';\nexport const x = Library;"],
    ['electron/engine/own-designs/x.ts', "import { HANDLERS } from '../contract/handlers';\nexport const x = HANDLERS;"],
  ])('refuses an import against the engine\'s inner layers in %s', async (filePath, code) => {
    expect((await problems(filePath, code)).join('\n')).toMatch(/import-x\/no-restricted-paths.*inner layers/);
  });

  it.each([
    ['electron/engine/runtime/x.ts', "import { runCli } from '../../cli/main';\nexport const x = runCli;"],
    ['electron/engine/x.ts', "import { runCli } from '../cli/main';\nexport const x = runCli;"],
  ])('refuses an engine import of a front end in %s', async (filePath, code) => {
    expect((await problems(filePath, code)).join('\n')).toMatch(/import-x\/no-restricted-paths/);
  });

  it.each([
    ['electron/preload/x.ts', "import { openEngine } from '../engine/runtime/open-engine';\nexport const x = openEngine;"],
    ['electron/shell/x.ts', "import { runCli } from '../cli/main';\nexport const x = runCli;"],
    ['electron/launcher/x.ts', "import { EngineBridge } from '../shell/engine-bridge/engine-bridge';\nexport const x = EngineBridge;"],
  ])('keeps the Electron app\'s parts apart in %s', async (filePath, code) => {
    expect((await problems(filePath, code)).join('\n')).toMatch(/import-x\/no-restricted-paths/);
  });

  it.each([
    ['test/x.ts', "import { openBenchWindow } from '../bench/support/window';\nexport const x = openBenchWindow;"],
    ['test/engine/x.ts', "import { round } from '../../bench/support/measure';\nexport const x = round;"],
    ['bench/x.ts', "import { listFormDesign } from '../test/engine/cache/cache-fixtures';\nexport const x = listFormDesign;"],
    ['build/x.ts', "import { showView } from '../test/window/views';\nexport const x = showView;"],
    ['harness/x.ts', "import { listFormDesign } from '../test/engine/cache/cache-fixtures';\nexport const x = listFormDesign;"],
    ['harness/x.ts', "import { openBenchWindow } from '../bench/support/window';\nexport const x = openBenchWindow;"],
    ['electron/engine/x.ts', "import { until } from '../../harness/until';\nexport const x = until;"],
  ])('keeps tests, benchmarks and screenshots apart, sharing only harness/, in %s', async (filePath, code) => {
    expect((await problems(filePath, code)).join('\n')).toMatch(/import-x\/no-restricted-paths/);
  });

  it('lets tests, benchmarks and screenshots use harness/', async () => {
    expect(await problems('test/x.ts', "import { until } from '../harness/until';\nexport const x = until;")).toEqual([]);
    expect(await problems('bench/x.ts', "import { openWindow } from '../harness/window';\nexport const x = openWindow;")).toEqual([]);
    expect(await problems('build/x.ts', "import { launchChromium } from '../harness/chromium';\nexport const x = launchChromium;")).toEqual([]);
  });

  it('refuses values from shared/\'s index in the window (it would carry zod into its first script)', async () => {
    expect((await problems('renderer/x.ts', "import { LICENSES } from '../shared';\nexport const x = LICENSES;")).join('\n')).toMatch(/no-restricted-imports.*zod/);
  });

  it('refuses electron in the launcher, which runs in plain Node', async () => {
    expect((await problems('electron/launcher/x.ts', "import { app } from 'electron';\nexport const x = app;")).join('\n')).toMatch(/no-restricted-imports/);
  });

  it('lets the sync layer use the queue, and the queue the sync state', async () => {
    expect(await problems('electron/engine/sync/x.ts', "import { QueueStore } from '../queue/queue-store';\nexport const x = QueueStore;")).toEqual([]);
    expect(await problems('electron/engine/queue/x.ts', "import { BaseFiles } from '../sync-state/base-files';\nexport const x = BaseFiles;")).toEqual([]);
  });

  it('lets the services use the runtime, and the contract the services', async () => {
    expect(await problems('electron/engine/own-designs/x.ts', "import { Engine } from '../runtime/engine';\nexport const x = Engine;")).toEqual([]);
    expect(await problems('electron/engine/contract/x.ts', "import { OwnDesigns } from '../own-designs/own-designs';\nimport { Library } from '../library/library';\nexport const x = [OwnDesigns, Library];")).toEqual([]);
  });

  it('lets the shell import electron and every layer import shared', async () => {
    expect(await problems('electron/shell/x.ts', "import { app } from 'electron';\nexport const x = app;")).toEqual([]);
    expect(await problems('renderer/x.ts', "import { LICENSES } from '../shared/licenses/licenses';\nimport type { DesignCard } from '../shared';\nexport const x: DesignCard[] = [];\nexport const y = LICENSES;")).toEqual([]);
    expect(await problems('electron/engine/x.ts', "import { LICENSES } from '../../shared';\nexport const x = LICENSES;")).toEqual([]);
  });
});
