import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, type QueueWorld } from './queue-fixtures';

let service: TestService;
let token: string;
let world: QueueWorld;
let designId: number;

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('damaged').token;
});
afterAll(() => service.stop());
beforeEach(async () => {
  world = await queueWorld(service.url, token);
  designId = (await world.api.createDesign({ name: 'Damaged', excerpt: 'x' })).id;
  world.folders.link('Damaged', designId);
});
afterEach(() => world.dispose());

const damaged = (subject: string, kind: string, field: string, problem: string) =>
  `${subject} cannot be sent: its entry in the queue is damaged or was written by another version of design-sync ` +
  `(the ${kind} item's field "${field}": ${problem}). Cancel it and make the change again.`;

describe('queue items whose payload does not fit their kind', () => {
  it('fail alone before their job runs, in words naming the kind and the field, while the others are sent', async () => {
    const upload = (name: string) => {
      world.write(`Damaged/${name}`, `solid ${name}\nendsolid ${name}\n`);
      return world.enqueueUpload(`Damaged/${name}`, 'document', designId);
    };
    const good = upload('good.stl');
    const numberName = upload('number.stl');
    const garbled = upload('garbled.stl');
    const rename = world.store.enqueue({
      kind: 'rename', path: 'Damaged/renamed.stl', folder: 'Damaged', designId, fileKind: 'document', remoteId: 999,
      payload: { fromPath: 'Damaged/old.stl', newName: 'renamed.stl' },
    }).id;
    const edit = world.store.enqueueDesignEdit(designId, { name: 'Damaged, renamed' }, 'Damaged').id;
    const later = upload('later.stl');

    // As another version of design-sync, or a damaged disk, would have left them: written straight into the sync database.
    const write = world.db.prepare('UPDATE queue_items SET payload = ? WHERE id = ?');
    write.run('{"name": 42}', numberName);
    write.run('{"name": "garbled.stl"', garbled);
    write.run('{"fromPath": "Damaged/old.stl"}', rename);
    write.run('{"fields": "name=Damaged, renamed", "designName": "Damaged"}', edit);
    expect(world.store.list()).toHaveLength(6);

    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });

    expect(world.store.get(good)!.state).toBe('done');
    expect(world.store.get(later)!.state).toBe('done');
    expect(world.store.get(numberName)).toMatchObject({ state: 'failed', reason: damaged('The upload of Damaged/number.stl', 'upload', 'name', 'text expected, found a number') });
    expect(world.store.get(garbled)).toMatchObject({ state: 'failed', reason: damaged('The upload of Damaged/garbled.stl', 'upload', 'payload', 'not readable, damaged') });
    expect(world.store.get(rename)).toMatchObject({ state: 'failed', reason: damaged('The rename of Damaged/renamed.stl', 'rename', 'newName', 'missing') });
    expect(world.store.get(edit)).toMatchObject({ state: 'failed', reason: damaged('The edit of a design', 'update-design', 'fields', 'a set of fields expected, found text') });
    for (const id of [numberName, garbled, rename, edit]) expect(world.store.get(id)!.reason).not.toMatch(/TypeError|undefined|Cannot read/);

    expect((await world.api.listDocuments(designId)).map((d) => d.name).sort()).toEqual(['good.stl', 'later.stl']);
    expect((await world.api.getDesign(designId)).name).toBe('Damaged');
    const errors = world.store.recentActivity(50).filter((a) => a.level === 'error').map((a) => a.message);
    expect(errors).toHaveLength(4);
  });

  it('a known field of the wrong type in an item waiting for a person fails it once confirmed, saying which', async () => {
    world.folders.setState('Clamp', 'proposed');
    const create = world.store.enqueue({ kind: 'create-design', folder: 'Clamp', payload: { name: 'Clamp', excerpt: 'Holds' }, attention: { kind: 'confirm-design', reason: 'new folder' } }).id;
    world.db.prepare('UPDATE queue_items SET payload = ? WHERE id = ?').run('{"name": "Clamp", "excerpt": "Holds", "createdDesignId": "seven"}', create);
    world.store.confirm(create, { name: 'Clamp', excerpt: 'Holds' });
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(create)).toMatchObject({
      state: 'failed', reason: damaged('The design for the folder "Clamp"', 'create-design', 'createdDesignId', 'a number expected, found text'),
    });
    expect(world.folders.get('Clamp')!.state).toBe('proposed');
  });
});
