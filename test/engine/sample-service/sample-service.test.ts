import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../electron/engine/authorization/memory-token-store';
import { createContractEndpoint } from '../../../electron/engine/contract/create-contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { openEngine } from '../../../electron/engine/runtime/open-engine';
import { serviceCommand } from '../../../electron/engine/sample-service/service-command';
import { fileSettingsStore } from '../../../electron/engine/settings/settings-store';
import { tempDir } from '../cache/cache-fixtures';
import type { SampleServiceView } from '../../../shared';
import { createTranslator } from '../../../shared/i18n/create-intl';
import { engineWordsText } from '../../../shared/i18n/engine-words';
import { startTestService } from '../../../harness/local-service';
import { until } from '../../../harness/until';

const profiles: string[] = [];
afterAll(() => {
  for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
});

function open(profile: string): Promise<Engine> {
  return openEngine({
    profileDir: profile, userAgent: 'design-sync-test', settleMs: 200, trash: 'folder',
    tokenStore: () => new MemoryTokenStore(null), settingsStore: () => fileSettingsStore(join(profile, 'settings.json')),
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answersDesigns(url: string): Promise<boolean> {
  const answer = await fetch(`${url}/v1/designs?limit=1`).catch(() => null);
  return answer?.status === 200;
}

describe('the sample service (the bundled local service with sample designs, run by the engine)', () => {
  it('starts for the profile, becomes its service, starts again on the same address, stops with the engine, and is let go for another service', async () => {
    const profile = tempDir('sample-service');
    profiles.push(profile);
    const engine = await open(profile);
    const endpoint = createContractEndpoint(engine);
    const outcome = await endpoint.handle('service.trySample', {});
    expect(outcome).toMatchObject({ ok: true, value: { inUse: true, problem: null, signIn: { screenName: 'demo', password: 'demo' } } });
    const url = (outcome as { value: { serviceUrl: string } }).value.serviceUrl;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(engine.connection.serviceUrl()).toBe(url);
    expect(fileSettingsStore(join(profile, 'settings.json')).read()).toMatchObject({ sampleService: true, serviceUrl: url });
    expect(await answersDesigns(url)).toBe(true);
    const firstPid = engine.sampleService.pid!;
    await endpoint.close();
    await engine.close();
    expect(alive(firstPid)).toBe(false);
    expect(await answersDesigns(url)).toBe(false);

    const again = await open(profile);
    try {
      await again.startBackground();
      expect(again.sampleService.address).toBe(url);
      expect(again.sampleService.problem).toBeNull();
      expect(await answersDesigns(url)).toBe(true);
      const pulled = await again.catalogue.pullNow();
      expect(pulled.designs.inserted).toBeGreaterThan(50);
      // A second process of the profile (a design-sync command beside the window) uses the running one, never stops it.
      const beside = await open(profile);
      try {
        await beside.startBackground();
        expect(beside.sampleService.address).toBe(url);
        expect(beside.sampleService.problem).toBeNull();
        expect(beside.sampleService.pid).toBeNull();
      } finally {
        await beside.close();
      }
      expect(await answersDesigns(url)).toBe(true);
      const pid = again.sampleService.pid!;
      await again.close();
      expect(alive(pid)).toBe(false);
    } finally {
      await again.close();
    }

    // One that stops by itself (killed) is told, so that the window can say why the service is gone.
    const third = await open(profile);
    try {
      await third.startBackground();
      expect(third.sampleService.address).toBe(url);
      process.kill(third.sampleService.pid!, 'SIGKILL');
      await until('the stop is told', () => third.sampleService.problem !== null, 20_000);
      expect(third.sampleService.problem).toMatch(/^The sample service stopped \(SIGKILL\)/);
      expect(third.sampleService.address).toBeNull();
    } finally {
      await third.close();
    }

    // Another service chosen: the sample one is stopped and forgotten (never started again on what is now another's).
    const other = await startTestService();
    const fourth = await open(profile);
    const fourthEndpoint = createContractEndpoint(fourth);
    try {
      await fourth.startBackground();
      const pid = fourth.sampleService.pid!;
      expect(await fourthEndpoint.handle('settings.update', { serviceUrl: other.url })).toMatchObject({ ok: true });
      await until('the sample service is let go', () => !alive(pid), 20_000);
      expect(fourth.sampleService.inUse()).toBe(false);
      expect(fileSettingsStore(join(profile, 'settings.json')).read()).toMatchObject({ sampleService: false, serviceUrl: other.url });
    } finally {
      await fourthEndpoint.close();
      await fourth.close();
      await other.stop();
    }
  }, 240_000);

  it('says so when another program took its port, and keeps the address (the sign-in belongs to it)', async () => {
    const taken: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    const profile = tempDir('sample-service-taken');
    profiles.push(profile);
    fileSettingsStore(join(profile, 'settings.json')).update({ serviceUrl: `http://127.0.0.1:${port}`, sampleService: true });
    const engine = await open(profile);
    try {
      await engine.startBackground();
      expect(engine.sampleService.address).toBeNull();
      expect(engine.sampleService.problem).toMatch(new RegExp(`^Port ${port} on 127\\.0\\.0\\.1, where this profile's sample service runs, is taken by another program\\.`));
      expect(engine.connection.serviceUrl()).toBe(`http://127.0.0.1:${port}`);
      const endpoint = createContractEndpoint(engine);
      const view = await endpoint.handle('service.sample', {});
      expect(view).toMatchObject({ ok: true, value: { inUse: true, serviceUrl: null, problem: expect.stringMatching(/is taken by another program/) } });
      // Its facts come with it, which the welcome's notice words in the person's language.
      const words = (view as { ok: true; value: SampleServiceView }).value.problemWords;
      expect(words).toEqual({ id: 'sample.problem.portTaken', values: { port: String(port) } });
      expect(engineWordsText(await createTranslator('nl'), words!)).toBe(`Poort ${port} op 127.0.0.1, waar de voorbeelddienst van dit profiel draait, wordt door een ander programma gebruikt. `
        + 'Sluit dat programma en open design-sync daarna opnieuw: de voorbeelddienst houdt zijn adres, omdat je inlog daarbij hoort.');
      await endpoint.close();
    } finally {
      await engine.close();
      await new Promise((done) => taken.close(done));
    }
  });
});

describe('the command that runs the local service', () => {
  const base = { appRoot: '/app', execPath: '/usr/bin/node', env: { PATH: '/bin' }, exists: () => false };

  it('runs the sources (through their kept bundle) under Node, with the service\'s arguments', () => {
    expect(serviceCommand({ ...base, versions: {} }, ['--port', '4010'])).toEqual({
      command: '/usr/bin/node', args: [join('electron', 'launcher', 'run-source.mjs'), join('service', 'cli.ts'), '--port', '4010'], cwd: '/app', env: { PATH: '/bin' },
    });
  });

  it('runs the bundle when a build made one, under Electron as Node', () => {
    const command = serviceCommand({ ...base, execPath: '/opt/electron', versions: { electron: '45.0.0' }, exists: (path) => path === join('/app', 'dist', 'service', 'cli.mjs') }, ['--demo']);
    expect(command).toEqual({ command: '/opt/electron', args: [join('/app', 'dist', 'service', 'cli.mjs'), '--demo'], cwd: '/app', env: { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' } });
  });

  it('under Electron, prefers the plain Node the launcher handed over (the service\'s native modules are built for Node)', () => {
    const command = serviceCommand({ ...base, execPath: '/opt/electron', versions: { electron: '45.0.0' }, env: { DESIGN_SYNC_NODE: '/usr/local/bin/node' } }, []);
    expect(command.command).toBe('/usr/local/bin/node');
    expect(command.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
  });
});
