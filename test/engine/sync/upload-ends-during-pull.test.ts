import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../harness/until';
import { tempDir } from '../cache/cache-fixtures';
import { startCountingProxy } from '../../../harness/counting-proxy';
import { pending, send, syncedFolder } from '../../../harness/sync-computers';
import { useSyncService } from '../../../harness/sync-service';

/**
 * An upload that ends while a pass brings the service's changes in. The pass read the design's files when the
 * service already had the upload but the engine did not know it yet; by the time the pass comes to that file, the
 * upload's ending has recorded it. Found by the sync fuzz test (seed 9324, under load): the pass took it for another
 * file of the same name, downloaded it as "f11 (2).bin" and took its record from the file here, which was then sent
 * a second time.
 *
 * The engine talks to the service through a proxy that holds chosen answers: the service has done the work, the
 * engine does not know yet.
 */
interface Gate {
  matches: (method: string, path: string) => boolean;
  reached: () => void;
  released: Promise<void>;
}

const sync = useSyncService();
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
const gates: Gate[] = [];

/** Holds the next answer that `matches`: resolves once the service has answered it, with the function that passes it on. */
function holdNext(matches: Gate['matches']): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  gates.push({ matches, reached, released });
  return { reached: reachedPromise, release };
}

beforeAll(async () => {
  proxy = await startCountingProxy(sync.service.url, {
    beforeAnswer: ({ method, path }) => {
      const index = gates.findIndex((gate) => gate.matches(method, path));
      if (index < 0) return undefined;
      const [gate] = gates.splice(index, 1);
      gate!.reached();
      return gate!.released;
    },
  });
});
afterAll(async () => {
  await proxy.close();
});
afterEach(async () => {
  gates.splice(0);
});

describe('an upload that ends while a pass brings in the service\'s changes', () => {
  it('is not taken for another file of the same name: nothing is downloaded again, nothing sent twice', async () => {
    // The engine (and this test's client) go through the proxy.
    const { computer, api, design, folder, dir } = await syncedFolder({ url: proxy.url, addUser: (name) => sync.service.addUser(name) }, 'upload-ends-during-pull', 0, sync.computers);

    writeFileSync(join(dir, 'f11.bin'), 'made here');
    await computer.engine.scan({ settle: 'wait' });
    expect(pending(computer).map((item) => [item.kind, item.path])).toEqual([['upload', `${folder}/f11.bin`]]);
    // Added on the service by someone else before the upload: listed (and brought in) before it.
    const source = join(tempDir('upload-ends-during-pull'), 'shade.stl');
    writeFileSync(source, 'made there');
    await api.uploadDocument(design.id, { path: source }, { name: 'shade.stl' });

    // The service stores the upload; its answer is held, so the item is still running.
    const upload = holdNext((method, path) => method === 'POST' && path.endsWith('/documents'));
    computer.runner.start();
    await upload.reached;
    // The pass lists both files, then waits on the download of the first.
    const download = holdNext((method, path) => method === 'GET' && path.startsWith('/uploads/'));
    const pass = computer.engine.syncOnce({ settle: 'wait' });
    await download.reached;
    // Meanwhile the upload ends: the file here is recorded as synced with the service's new file.
    upload.release();
    await until('the upload of f11.bin to end', () => computer.engine.queue.list({ states: ['done'] }).some((item) => item.path === `${folder}/f11.bin`));
    download.release();
    await pass;
    await send(computer);
    await computer.engine.syncOnce({ settle: 'wait' });

    expect(readdirSync(dir).sort()).toEqual(['f11.bin', 'shade.stl']);
    expect(readFileSync(join(dir, 'f11.bin'), 'utf8')).toBe('made here');
    expect(pending(computer)).toEqual([]);
    expect((await api.listDocuments(design.id)).map((document) => document.name).sort()).toEqual(['f11.bin', 'shade.stl']);
  });
});
