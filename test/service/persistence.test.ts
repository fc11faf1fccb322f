import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseFromTheFutureError, openDatabase } from '../../service/database/open-database';
import { json } from '../support/conformance';
import { startTestService } from '../../harness/local-service';

const dataDir = mkdtempSync(join(tmpdir(), 'design-sync-persist-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the service\'s data', () => {
  it('survives a restart: users, tokens, designs, images and their files', async () => {
    const first = await startTestService({ dataDir });
    const { token } = first.addUser('keeper');
    const design = await json<{ id: number }>(await first.request('POST', '/v1/designs', { token, json: { design: { name: 'Kept', excerpt: 'x' } } }), 201);
    const form = new FormData();
    form.set('image[file]', new Blob([readFileSync(join(import.meta.dirname, '../fixtures/images/png-sample.png'))]), 'kept.png');
    const image = await json<{ file: { url: string; grid: { url: string } } }>(await first.request('POST', `/v1/designs/${design.id}/images`, { token, body: form }), 201);
    await first.stop();

    const second = await startTestService({ dataDir });
    try {
      const read = await json<{ name: string; primary_image_id: number }>(await second.request('GET', `/v1/designs/${design.id}`, { token }), 200);
      expect(read.name).toBe('Kept');
      const grid = await second.request('GET', image.file.grid.url, { token });
      expect(grid.status).toBe(200);
      expect(grid.headers.get('content-type')).toBe('image/jpeg');
      expect((await grid.arrayBuffer()).byteLength).toBeGreaterThan(100);
    } finally {
      await second.stop();
    }
  });

  it('refuses a database written by a newer version, by name', () => {
    const path = join(dataDir, 'future.sqlite');
    const db = openDatabase(path);
    db.pragma('user_version = 999');
    db.close();
    expect(() => openDatabase(path)).toThrow(DatabaseFromTheFutureError);
    expect(() => openDatabase(path)).toThrow(/schema version 999, newer than this service knows/);
  });
});
