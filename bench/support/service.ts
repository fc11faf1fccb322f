import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, type ServiceProcess } from '../../harness/service-process';

/**
 * The local service in its own process (so its CPU and memory are not the client's), seeded with n synthetic designs;
 * `faults` mounts its loopback-only fault injection (/__admin/faults), for a link with latency.
 */
export async function serviceWithSyntheticDesigns(count: number, options: { faults?: boolean } = {}): Promise<ServiceProcess & { dispose(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-bench-service-'));
  const args = ['--synthetic', String(count), ...(options.faults ? ['--faults'] : [])];
  // Seeding takes about a millisecond a design on a busy machine: a million take minutes before the service listens.
  const service = await startServiceProcess({ dataDir, args, startTimeoutMs: 30_000 + count * 2 });
  return {
    ...service,
    async dispose() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function scratchDir(prefix: string): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), `design-sync-bench-${prefix}-`));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); null where it cannot be read. */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;
