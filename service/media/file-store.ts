import { rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { ServiceContext } from '../server/service-context';

/** Stored files live under <data>/files/<storage_key>/. */
export function storageDir(ctx: ServiceContext, storageKey: string): string {
  const root = resolve(ctx.options.dataDir, 'files');
  const dir = resolve(root, storageKey);
  if (!dir.startsWith(root + sep)) throw new Error(`storage key escapes the file store: ${storageKey}`);
  return dir;
}

export function tmpDir(ctx: ServiceContext): string {
  return join(ctx.options.dataDir, 'tmp');
}

export function removeStorage(ctx: ServiceContext, storageKey: string): void {
  rmSync(storageDir(ctx, storageKey), { recursive: true, force: true });
}
