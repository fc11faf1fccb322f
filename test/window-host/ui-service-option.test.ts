import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli-child';
import { startTestService, type TestService } from '../../harness/local-service';
import { tempDir } from '../engine/cache/cache-fixtures';
import { cookieOf, inbox, upgrade } from './host-fixtures';

let service: TestService;
const profile = tempDir('ui-service-option');
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
  rmSync(profile, { recursive: true, force: true });
});

describe('design-sync ui --service <url>', () => {
  it('opens the window on that service: settings.get through the window host says so', async () => {
    const ui = startCli(profile, ['ui', '--service', `${service.url}/`, '--no-open']);
    try {
      await ui.waitFor(/^window: http:\/\/127\.0\.0\.1:\d+\/\?secret=\S+$/m, 30_000);
      const address = /^window: (\S+)$/m.exec(ui.out())![1]!;
      const { port, origin } = new URL(address);
      const cookie = await cookieOf(Number(port), address);
      const { opened: socket } = await upgrade(Number(port), { cookie, origin });
      expect(socket).not.toBeNull();
      const messages = inbox(socket!);
      socket!.send(JSON.stringify({ type: 'request', id: 1, name: 'settings.get', input: {} }));
      const answer = await messages.next((message) => message.type === 'response' && message.id === 1, 10_000);
      expect(answer).toMatchObject({ outcome: { ok: true, value: { serviceUrl: service.url } } });
      socket!.terminate();
    } finally {
      expect(await ui.interrupt()).toBe(0);
    }
  }, 60_000);
});
