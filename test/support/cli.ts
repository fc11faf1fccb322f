import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { startTestService, type TestService } from '../../harness/local-service';
import type { CliIo } from '../../electron/cli/cli-context';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs the design-sync CLI in this process with a profile, capturing what it prints. */
export async function runCliCapturing(profile: string, argv: string[], stdin = ''): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), readStdin: async () => stdin };
  const code = await runCli(['--profile', profile, ...argv], io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/**
 * For a test file: a local service with one user, the CLI run in this process with that user's token on stdin
 * (`login --with-token`), and the folders a test names removed after the file.
 */
export function useCliWithTestService(userName: string) {
  let service: TestService | undefined;
  let token = '';
  const folders: string[] = [];
  beforeAll(async () => {
    service = await startTestService();
    token = service.addUser(userName).token;
  });
  afterAll(async () => {
    await service?.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  return {
    get service(): TestService {
      if (!service) throw new Error('the test service starts in beforeAll');
      return service;
    },
    get token(): string {
      return token;
    },
    cli: (profile: string, ...argv: string[]): Promise<CliRun> => runCliCapturing(profile, argv, token),
    removeAfter: (...paths: string[]): void => void folders.push(...paths),
  };
}
