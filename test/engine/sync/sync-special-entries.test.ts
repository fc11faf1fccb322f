import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncEvent } from '../../../electron/engine/sync/sync-context';
import { until } from '../../../harness/until';
import { IS_ROOT } from '../../support/cli-child';
import { send } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const sync = useSyncService({ userPrefix: 'special' });
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A name that is not valid UTF-8 (0xff never appears in UTF-8), as a Buffer path under `dir`. */
const badName = (dir: string, bytes: number[]) => Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(bytes)]);
const BAD_FILE = [...Buffer.from('bad'), 0xff, ...Buffer.from('.stl')]; // bad\xff.stl
const BAD_FOLDER = [...Buffer.from('top'), 0xfe]; // top\xfe

/** A character device (the null device's numbers), where this user may make one (root): mknod; else null. */
function makeDevice(path: string): boolean {
  if (!IS_ROOT) return false;
  return spawnSync('mknod', [path, 'c', '1', '3'], { stdio: 'ignore' }).status === 0;
}

async function listenOn(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
}

async function synced() {
  const { token, api } = sync.user('special');
  const design = await api.createDesign({ name: 'Clamp', excerpt: 'A clamp', license: 'cc0' });
  const computer = await sync.computer(token);
  await computer.engine.syncOnce({ settle: 'wait' });
  const folder = computer.engine.folders.ofDesign(design.id)!.folder;
  return { computer, api, design, folder, dir: join(computer.rootPath, folder) };
}

const warnings = (events: SyncEvent[]) => events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));

describe('what is in a design folder but is not a file with a name', () => {
  it('a FIFO, a socket, a device and names that are not valid UTF-8 are each reported once (log and warning), never read or sent', async () => {
    const { computer, api, design, folder, dir } = await synced();
    const { engine, events } = computer;
    writeFileSync(join(dir, 'real.stl'), 'solid real');
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await listenOn(join(dir, 'sock'));
    const device = makeDevice(join(dir, 'null-device'));
    writeFileSync(badName(dir, BAD_FILE), 'solid bad name');
    mkdirSync(badName(computer.rootPath, BAD_FOLDER));
    execFileSync('mkfifo', [join(computer.rootPath, 'top-pipe')]);

    const expected = [
      `${folder}/pipe is a named pipe (FIFO), not a file: it is not synced.`,
      `${folder}/sock is a socket, not a file: it is not synced.`,
      ...(device ? [`${folder}/null-device is a device (character device), not a file: it is not synced.`] : []),
      `In ${folder}, a file whose name is not valid UTF-8 (shown as “bad\uFFFD.stl”, bytes 626164ff2e73746c) is not synced: rename it to sync it.`,
      'At the top of the sync folder, a folder whose name is not valid UTF-8 (shown as “top\uFFFD”, bytes 746f70fe) is not synced: rename it to sync it.',
      'top-pipe is a named pipe (FIFO), not a file: it is not synced.',
    ];
    // A read of the pipe would wait for a writer forever: the pass ending at all shows it was never opened.
    const first = await engine.syncOnce({ settle: 'wait' });
    expect(first.stopped).toBeNull();
    expect(first.scan).toMatchObject({ files: 1, enqueued: 1 });
    expect(warnings(events).sort()).toEqual([...expected].sort());
    const logged = engine.queue.recentActivity(200).filter((line) => line.level === 'warning').map((line) => line.message);
    expect(logged.sort()).toEqual([...expected].sort());

    // Once per run: the next pass says nothing again.
    await engine.syncOnce({ settle: 'wait' });
    expect(warnings(events)).toHaveLength(expected.length);

    const sent = await send(computer);
    expect(sent.map((item) => item.path)).toEqual([`${folder}/real.stl`]);
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['real.stl']);
    expect(engine.queue.list({ states: ['waiting', 'attention', 'failed', 'running'] })).toEqual([]);
  }, 60_000);

  it('watching a folder that holds them does not crash: a file added next to them is sent', async () => {
    const { computer, api, design, dir } = await synced();
    const { engine, runner } = computer;
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await listenOn(join(dir, 'sock'));
    writeFileSync(badName(dir, BAD_FILE), 'solid bad name');
    await engine.start({ watch: true });
    runner.start();
    execFileSync('mkfifo', [join(dir, 'pipe-2')]);
    writeFileSync(join(dir, 'later.stl'), 'solid later');
    await until('later.stl on the service', async () => (await api.listDocuments(design.id)).some((d) => d.name === 'later.stl'));
    await until('pipe-2 reported', () => warnings(computer.events).some((message) => message.endsWith('pipe-2 is a named pipe (FIFO), not a file: it is not synced.')));
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['later.stl']);
    expect(engine.stopped).toBeNull();
  }, 60_000);
});
