import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findApplication, grantAuthorization, REGISTERED_APPLICATION } from '../service/authorization/integrations';
import { openServiceContext } from '../service/server/start-service';
import { createUser } from '../service/users/user-accounts';

export interface ServiceProcess {
  url: string;
  /** The web site's address: `url` unless started with --web-port. */
  webUrl: string;
  dataDir: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Users with tokens, written into a data dir before a service process is started on it. */
export function prepareUsers(dataDir: string, screenNames: string[]): Record<string, string> {
  const ctx = openServiceContext({ dataDir });
  try {
    const app = findApplication(ctx.db, REGISTERED_APPLICATION)!;
    return Object.fromEntries(screenNames.map((name) => {
      const user = createUser(ctx.db, { screenName: name, password: 'secret', now: Date.now() });
      return [name, grantAuthorization(ctx.db, user.id, app.id, Date.now()).token];
    }));
  } finally {
    ctx.db.close();
  }
}

/** The local service in its own process, as `npm run service` starts it, so its memory and crashes are its own. */
export async function startServiceProcess(options: { dataDir?: string; args?: string[]; startTimeoutMs?: number } = {}): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'design-sync-service-'));
  const child = spawn(process.execPath, ['electron/launcher/run-source.mjs', 'service/cli.ts', '--port', '0', '--data', dataDir, ...(options.args ?? [])], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let webUrl = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start in time:\n${output}`)), options.startTimeoutMs ?? 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
        webUrl = output.match(/web site on (http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? match[1]!;
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code}:\n${output}`));
    });
  });
  return {
    url, webUrl, dataDir, child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
