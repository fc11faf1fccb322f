import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findApplication, grantAuthorization, REGISTERED_APPLICATION } from '../service/authorization/integrations';
import type { UserRow } from '../service/database/rows';
import { startService, type RunningService, type StartServiceOptions } from '../service/server/start-service';
import { createUser } from '../service/users/user-accounts';

export interface TestService extends RunningService {
  dataDir: string;
  /** A user with password "secret" and a token for the design-sync application. */
  addUser(screenName: string): { user: UserRow; token: string };
  /** GET/POST/… against the service, token added as auth_token when given. */
  request(method: string, path: string, options?: { token?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> }): Promise<Response>;
  stop(): Promise<void>;
}

/** With `webPort: 0`, the web site (sign-in, design pages) on a second free port and only the API on the first. */
export async function startTestService(options: Partial<StartServiceOptions> = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'design-sync-service-'));
  const service = await startService({ ...options, dataDir, port: 0 });
  const app = findApplication(service.db, REGISTERED_APPLICATION)!;
  return {
    ...service,
    dataDir,
    addUser(screenName) {
      const user = createUser(service.db, { screenName, password: 'secret', now: Date.now() });
      return { user, token: grantAuthorization(service.db, user.id, app.id, Date.now()).token };
    },
    async request(method, path, { token, json, body, headers } = {}) {
      const url = new URL(path, service.url);
      if (token !== undefined) url.searchParams.set('auth_token', token);
      const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
      if (json !== undefined) {
        init.body = JSON.stringify(json);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      } else if (body !== undefined) {
        init.body = body;
      }
      return fetch(url, init);
    },
    async stop() {
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
