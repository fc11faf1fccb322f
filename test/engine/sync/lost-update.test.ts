import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';
import { clientFor, makeComputer, pending, send, type Computer } from './sync-fixtures';

let service: TestService;
const computers: Computer[] = [];

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});
afterEach(async () => {
  for (const computer of computers.splice(0)) await computer.dispose();
});

describe('a file changed here and on the service before the change here is sent', () => {
  it('is not sent over the service\'s version: both are kept (found by the sync fuzz test, seed 1003)', async () => {
    const { token } = service.addUser('lost-update');
    const api = clientFor(service.url, token);
    const design = await api.createDesign({ name: 'Gear', excerpt: 'A gear', license: 'cc0' });
    const computer = await makeComputer(service.url, token);
    computers.push(computer);
    await computer.engine.syncOnce({ settle: 'wait' });
    const folder = computer.engine.folders.ofDesign(design.id)!.folder;
    const dir = join(computer.rootPath, folder);
    writeFileSync(join(dir, 'gear.stl'), 'first');
    await computer.engine.syncOnce({ settle: 'wait' });
    await send(computer);
    const [document] = await api.listDocuments(design.id);

    // Edited here (queued, not sent yet), then replaced on the service by another computer.
    writeFileSync(join(dir, 'gear.stl'), 'mine');
    await computer.engine.scan({ settle: 'wait' });
    expect(pending(computer).map((item) => item.kind)).toEqual(['replace']);
    const theirs = join(tmpdir(), `theirs-${process.pid}.stl`);
    writeFileSync(theirs, 'theirs');
    await api.updateDocument(design.id, document!.id, {}, { path: theirs, fileName: 'gear.stl' });

    await send(computer);
    const [held] = pending(computer);
    expect(held).toMatchObject({ kind: 'replace', state: 'attention', attention: 'conflict' });
    expect(held!.reason).toMatch(/was changed on the service too since it was last synced: your version was not sent over it/);
    const service1 = (await api.listDocuments(design.id)).map((d) => d.modelhash);
    expect(service1).toHaveLength(1);

    // The next pass keeps both: the service's under the name, this one as a conflicted copy.
    await computer.engine.syncOnce({ settle: 'wait' });
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(2);
    expect(readFileSync(join(dir, 'gear.stl'), 'utf8')).toBe('theirs');
    const copy = names.find((name) => name !== 'gear.stl')!;
    expect(copy).toMatch(/conflicted copy/);
    expect(readFileSync(join(dir, copy), 'utf8')).toBe('mine');
    expect(pending(computer).filter((item) => item.path === `${folder}/gear.stl`)).toEqual([]);
  });
});
