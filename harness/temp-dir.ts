import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder of its own under the system's temporary folder (design-sync-<prefix>-…); the caller removes it. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `design-sync-${prefix}-`));
}
