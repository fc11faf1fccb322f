import { runCli } from '../../electron/cli/main';
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
