import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../harness/until';
import { pending, send, type Computer, type ComputerOptions } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

const sync = useSyncService({ faultInjection: true, userPrefix: 'snap' });

beforeEach(async () => {
  await sync.service.request('DELETE', '/__admin/faults');
});
afterEach(async () => {
  await sync.service.request('DELETE', '/__admin/faults');
});

const syncedDesign = (files: number, options: ComputerOptions = {}) => sync.syncedFolder(files, options);

/** Holds the answers of the design's file listings (read at once, sent `ms` later), and resolves once one was read. */
async function holdListings(designId: number, ms: number): Promise<() => Promise<void>> {
  const response = await sync.service.request('POST', '/__admin/faults', {
    json: { kind: 'slow_answer', ms, method: 'GET', path: `^/v1/designs/${designId}/(images|documents)$`, count: 2 },
  });
  const { id } = (await response.json()) as { id: number };
  return async () => {
    await until('the listing to be read by the service', async () => {
      const rules = (await (await sync.service.request('GET', '/__admin/faults')).json()) as { id: number; hits: number }[];
      return rules.find((rule) => rule.id === id)!.hits >= 2;
    }, 10_000);
  };
}

const trashed = (computer: Computer) => computer.events.filter((event) => event.type === 'trashed');
const trashFolder = (computer: Computer) => join(computer.rootPath, '.design-sync-trash');

describe('a listing is a snapshot: it never judges what was sent after it was asked for', () => {
  it('a file uploaded while its design\'s listing was on the way is not moved to the trash', async () => {
    const { computer, dir, folder, api, design } = await syncedDesign(1);
    writeFileSync(join(dir, 'late.stl'), 'late');
    await computer.engine.scan({ settle: 'wait' });
    expect(pending(computer).map((item) => item.path)).toEqual([`${folder}/late.stl`]);

    const listingRead = await holdListings(design.id, 1500);
    const pass = computer.engine.syncOnce({ settle: 'wait' });
    await listingRead();
    // The upload lands (and is recorded as synced) while the listing without it is still on its way.
    await send(computer);
    expect(computer.engine.base.get(`${folder}/late.stl`)).not.toBeNull();
    const result = await pass;

    expect(trashed(computer)).toEqual([]);
    expect(existsSync(join(dir, 'late.stl'))).toBe(true);
    expect(existsSync(trashFolder(computer))).toBe(false);
    expect(result.remote!.trashed).toBe(0);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['late.stl', 'part-0.stl']);
    // The next pass, with a listing that knows of it, leaves it alone too.
    expect((await computer.engine.syncOnce({ settle: 'wait' })).remote!.trashed).toBe(0);
    expect(existsSync(join(dir, 'late.stl'))).toBe(true);
  });

  it('a file deleted on the service by the queue while the listing was on the way is not downloaded again', async () => {
    const { computer, dir, folder, api, design } = await syncedDesign(2);
    rmSync(join(dir, 'part-1.stl'));
    await computer.engine.scan({ settle: 'wait' });
    const [proposal] = pending(computer);
    expect(proposal).toMatchObject({ kind: 'delete-remote', path: `${folder}/part-1.stl` });
    computer.engine.queue.confirm(proposal!.id);

    const listingRead = await holdListings(design.id, 1500);
    const pass = computer.engine.syncOnce({ settle: 'wait' });
    await listingRead();
    await send(computer);
    const result = await pass;

    expect(result.remote!.downloaded).toBe(0);
    expect(result.remote!.warnings).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['part-0.stl']);
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['part-0.stl']);
  });

  it('a file deleted on the service by someone else is still moved to the trash, once the service confirms it is gone', async () => {
    const { computer, dir, folder, api, design } = await syncedDesign(2);
    const document = (await api.listDocuments(design.id)).find((d) => d.name === 'part-1.stl')!;
    await api.deleteDocument(design.id, document.id);
    const result = await computer.engine.syncOnce({ settle: 'wait' });
    expect(result.remote!.trashed).toBe(1);
    expect(trashed(computer).map((event) => event.type === 'trashed' && event.path)).toEqual([`${folder}/part-1.stl`]);
    expect(readdirSync(dir)).toEqual(['part-0.stl']);
  });
});

describe('a list read in part never moves a file', () => {
  let proxy: Server;
  let proxyUrl: string;
  /** Designs whose document listing the proxy answers without its last item, as a service that paged it would. */
  const truncated = new Set<number>();

  beforeAll(async () => {
    proxy = createServer((request, response) => {
      const match = request.method === 'GET' ? request.url!.match(/^\/v1\/designs\/(\d+)\/documents\?/) : null;
      const cut = match !== null && truncated.has(Number(match[1]));
      const headers = { ...request.headers, host: new URL(sync.service.url).host };
      // A cut listing is always answered whole by the service (no 304), then cut here.
      if (cut) {
        delete headers['if-none-match'];
        delete headers['if-modified-since'];
      }
      const upstream = httpRequest(new URL(request.url!, sync.service.url), { method: request.method, headers }, (answer) => {
        if (!cut || answer.statusCode !== 200) {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const list = JSON.parse(Buffer.concat(chunks).toString()) as unknown[];
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(list.slice(0, -1)));
        });
      });
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('a synced file missing from its design\'s listing stays in the folder while the service still has it', async () => {
    const { token, api } = sync.user('snap');
    const design = await api.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
    // The engine (its reads and the queue's writes) talks to the service through the proxy.
    const computer = await sync.computer(token, { url: proxyUrl });
    await computer.engine.syncOnce({ settle: 'wait' });
    const folder = computer.engine.folders.ofDesign(design.id)!.folder;
    const dir = join(computer.rootPath, folder);
    for (const name of ['a.stl', 'b.stl', 'c.stl']) writeFileSync(join(dir, name), name);
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    expect((await api.listDocuments(design.id))).toHaveLength(3);

    truncated.add(design.id);
    const result = await computer.engine.syncOnce({ settle: 'wait' });
    expect(result.remote!.trashed).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['a.stl', 'b.stl', 'c.stl']);
    expect(trashed(computer)).toEqual([]);
    expect(computer.engine.queue.recentActivity(50).map((entry) => entry.message).join('\n'))
      .toMatch(/missing from the service's list of its design, but the service still has it: nothing was changed/);
    expect(pending(computer)).toEqual([]);
  });
});

describe('design folders and crashes', () => {
  it('a design linked to a folder that a crash left unmade gets its folder, and nothing is proposed as a new design', async () => {
    const { token, api } = sync.user('snap');
    const computer = await sync.computer(token);
    const design = await api.createDesign({ name: 'Phone stand', excerpt: 'A stand', license: 'cc0' });
    // What a kill -9 right after linking leaves: the link, no folder.
    computer.engine.folders.linkToMake('phone-stand', design.id);
    expect(existsSync(join(computer.rootPath, 'phone-stand'))).toBe(false);

    const result = await computer.engine.syncOnce({ settle: 'wait' });
    expect(result.createdFolders).toEqual([]);
    expect(existsSync(join(computer.rootPath, 'phone-stand'))).toBe(true);
    expect(computer.engine.folders.all()).toEqual([{ folder: 'phone-stand', designId: design.id, state: 'linked' }]);
    expect(computer.engine.folders.toMake()).toEqual([]);
    expect(pending(computer)).toEqual([]);
    expect(readdirSync(computer.rootPath).filter((name) => !name.startsWith('.'))).toEqual(['phone-stand']);
  });
});
