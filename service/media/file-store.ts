import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
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

/** A fresh, unused path inside tmpDir (same file system as the store, so a rename moves it). */
export function newTempPath(ctx: ServiceContext, prefix: string): string {
  mkdirSync(tmpDir(ctx), { recursive: true });
  return join(tmpDir(ctx), `${prefix}-${randomUUID()}`);
}

/** Deletes a temporary file or directory; missing is fine. */
export function removeQuietly(path: string | null | undefined): void {
  if (!path) return;
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Best effort: a leftover in tmp/ harms nobody.
  }
}

/**
 * Moves a prepared directory into the store under storageKey, replacing what was there.
 * The old directory is first moved aside, so a reader never sees a half-written mix.
 */
export function installStorage(ctx: ServiceContext, stagingDir: string, storageKey: string): void {
  const target = storageDir(ctx, storageKey);
  mkdirSync(dirname(target), { recursive: true });
  const aside = newTempPath(ctx, 'replaced');
  let movedAside = false;
  try {
    renameSync(target, aside);
    movedAside = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    renameSync(stagingDir, target);
  } catch (error) {
    if (movedAside) renameSync(aside, target);
    throw error;
  }
  if (movedAside) removeQuietly(aside);
}
