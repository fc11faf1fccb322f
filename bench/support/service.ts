import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, type ServiceProcess } from '../../test/support/service-process';

/** The local service in its own process (so its CPU and memory are not the client's), seeded with n synthetic designs. */
export async function serviceWithSyntheticDesigns(count: number): Promise<ServiceProcess & { dispose(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-bench-service-'));
  // Seeding takes about a millisecond a design on a busy machine: a million take minutes before the service listens.
  const service = await startServiceProcess({ dataDir, args: ['--synthetic', String(count)], startTimeoutMs: 30_000 + count * 2 });
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
