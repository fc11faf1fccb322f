import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../harness/local-service';
import { queueWorld, type QueueWorld } from './queue-fixtures';

let service: TestService;
let token: string;
let world: QueueWorld;

beforeAll(async () => {
  service = await startTestService();
  token = service.addUser('wordsmith').token;
});
afterAll(() => service.stop());
beforeEach(async () => {
  world = await queueWorld(service.url, token);
});
afterEach(() => world.dispose());

const activityLines = () => world.store.recentActivity(50).map((entry) => entry.message);

describe('refusals, said once and in the window\'s words', () => {
  it('an edit the service refuses names its fields as the window labels them (excerpt is "Summary")', async () => {
    const design = await world.api.createDesign({ name: 'Gear', excerpt: 'A gear' });
    const edit = world.store.enqueueDesignEdit(design.id, { name: 'Gear two', excerpt: '' }, 'Gear').id;
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    const reason = 'The service refused the edit of “Gear”: Summary can\'t be blank.';
    expect(world.store.get(edit)).toMatchObject({ state: 'failed', reason });
    expect(activityLines().filter((line) => line.includes('Gear'))).toEqual([reason]);
    expect((await world.api.getDesign(design.id)).name).toBe('Gear');
  });

  it('a new design confirmed without a summary asks again, saying so with the window\'s label', async () => {
    const create = world.store.enqueue({ kind: 'create-design', folder: 'Blank', payload: {}, attention: { kind: 'confirm-design', reason: 'new folder' } }).id;
    world.store.confirm(create, { name: 'Blank', excerpt: ' ' });
    world.runner.start();
    await world.runner.waitForIdle({ timeoutMs: 10_000 });
    expect(world.store.get(create)).toMatchObject({
      state: 'attention', attention: 'confirm-design', reason: 'The design for "Blank" cannot be created: Summary can\'t be blank.',
    });
  });
});
