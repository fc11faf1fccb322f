import { copyFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractEndpoint } from '../../../electron/engine/contract/contract-endpoint';
import type { Engine } from '../../../electron/engine/runtime/engine';
import { sendAll, useEngineWithFolder } from './engine-with-folder';
import { FIXTURES } from './queue-fixtures';

const given = useEngineWithFolder('dismisser', { faultInjection: true });
const { engineWithFolder } = given;

const itemsOf = (engine: Engine, path: string) => engine.queue.list().filter((item) => item.path === path);

async function cancelFromWindow(window: ContractEndpoint, id: number): Promise<void> {
  const outcome = await window.handle('queue.cancel', { target: id });
  expect(outcome).toMatchObject({ ok: true });
}

describe('a refusal the person dismissed', () => {
  it('stays dismissed at the next scans and passes until the file changes; then the new version is sent', async () => {
    const { engine, window, folderPath: folder, designId } = await engineWithFolder('Dismissed gear');
    const name = folder.split('/').at(-1)!;
    const path = `${name}/gear.png`;
    copyFileSync(join(FIXTURES, 'images/invalid-truncated.png'), join(folder, 'gear.png'));
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await sendAll(engine);
    const [refused] = itemsOf(engine, path);
    expect(refused).toMatchObject({ state: 'attention', attention: 'invalid-file', reason: expect.stringMatching(/could not read gear\.png as an image/) });

    await cancelFromWindow(window, refused!.id);
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await engine.sync.syncParts().sync.syncOnce();
    expect(itemsOf(engine, path).map((item) => [item.id, item.state])).toEqual([[refused!.id, 'cancelled']]);

    copyFileSync(join(FIXTURES, 'images/png-sample.png'), join(folder, 'gear.png'));
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    const again = itemsOf(engine, path).filter((item) => item.id !== refused!.id);
    expect(again.map((item) => [item.kind, item.state])).toEqual([['upload', 'waiting']]);
    await sendAll(engine);
    expect(engine.queue.get(again[0]!.id)!.state).toBe('done');
    expect((await given.api.listImages(designId)).map((image) => image.name)).toEqual(['gear.png']);
  });

  it('a failed update of a synced file, dismissed, is not sent again until the file is saved again', async () => {
    const { engine, window, folderPath: folder, designId } = await engineWithFolder('Dismissed bracket');
    const name = folder.split('/').at(-1)!;
    const path = `${name}/bracket.stl`;
    writeFileSync(join(folder, 'bracket.stl'), 'solid bracket\nendsolid bracket\n');
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await sendAll(engine);
    expect(itemsOf(engine, path).map((item) => item.state)).toEqual(['done']);

    const refuse = await given.service.request('POST', '/__admin/faults', { json: { kind: 'status', status: 400, method: 'PATCH', path: '/documents/' } });
    expect(refuse.status).toBe(201);
    writeFileSync(join(folder, 'bracket.stl'), 'solid bracket v2\nendsolid bracket\n');
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    await sendAll(engine);
    const failed = itemsOf(engine, path).find((item) => item.kind === 'replace')!;
    expect(failed).toMatchObject({ state: 'failed', reason: `The service refused ${path}: Injected fault: HTTP 400.` });
    await given.service.request('DELETE', '/__admin/faults');

    await cancelFromWindow(window, failed.id);
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    expect(itemsOf(engine, path).filter((item) => item.state !== 'done' && item.state !== 'cancelled')).toEqual([]);

    const later = Date.now() / 1000 + 2;
    utimesSync(join(folder, 'bracket.stl'), later, later);
    await engine.sync.syncParts().sync.scan({ settle: 'wait' });
    const replace = itemsOf(engine, path).find((item) => item.state === 'waiting');
    expect(replace).toMatchObject({ kind: 'replace' });
    await sendAll(engine);
    expect(engine.queue.get(replace!.id)!.state).toBe('done');
    const [document] = await given.api.listDocuments(designId);
    expect(document!.name).toBe('bracket.stl');
  });
});
