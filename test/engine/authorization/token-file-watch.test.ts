import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../../electron/engine/authorization/file-token-store';
import { until } from '../../../harness/until';

/**
 * The token file is watched only while the engine waits for a sign-in: a token another process writes (or removes) is
 * noticed at once. The other process is played by another FileTokenStore on the same file, as `design-sync login` is.
 */
describe('FileTokenStore.watch', () => {
  let dir: string;
  const stops: (() => void)[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'design-sync-token-watch-'));
  });
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells of a token written, replaced and removed by another writer', async () => {
    const path = join(dir, 'token');
    const watched = new FileTokenStore(path);
    let changes = 0;
    stops.push(watched.watch(() => changes++));
    const other = new FileTokenStore(path);

    await other.write('first-token-value');
    await until('the first token noticed', () => changes >= 1, 10_000);
    expect(await watched.read()).toBe('first-token-value');

    const seen = changes;
    await other.write('second-token-value');
    await until('the new token noticed', () => changes > seen, 10_000);
    expect(await watched.read()).toBe('second-token-value');

    const before = changes;
    await other.clear();
    await until('the removal noticed', () => changes > before, 10_000);
    expect(await watched.read()).toBeNull();
  });

  it('notices by polling where the folder cannot be watched (it does not exist yet)', async () => {
    const path = join(dir, 'made-later', 'token');
    const watched = new FileTokenStore(path);
    let changes = 0;
    stops.push(watched.watch(() => changes++, 50));
    await new FileTokenStore(path).write('token-in-a-new-folder');
    await until('the token noticed by the poll', () => changes >= 1, 10_000);
    expect(await watched.read()).toBe('token-in-a-new-folder');
  });
});
