import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWithTestService } from '../../support/cli';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';

const world = useCliWithTestService('cli-maker');
const { cli } = world;

describe('design-sync sync', () => {
  it('syncs a folder in one pass, asks before deleting on the service, and refuses a folder another profile syncs', async () => {
    const api = clientFor(world.service.url, world.token);
    const design = await api.createDesign({ name: 'Hinge', excerpt: 'A hinge', license: 'cc0' });
    const profile = tempDir('cli-sync-profile');
    const root = join(tempDir('cli-sync-root'), 'Designs');
    world.removeAfter(profile, join(root, '..'));
    expect((await cli(profile, '--service', world.service.url, 'login', '--with-token')).code).toBe(0);

    const unasked = await cli(profile, 'sync', root, '--settle-ms', '100');
    expect(unasked.code).toBe(1);
    expect(unasked.err).toMatch(/right to publish.*--accept-content-policy/s);

    // Rule 5: asked once per profile, remembered after.
    const first = await cli(profile, 'sync', root, '--accept-content-policy', '--settle-ms', '100');
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/folder made: hinge/);
    expect(first.out).toMatch(/in sync\./);
    expect(readdirSync(root).sort()).toEqual(['.design-sync.json', 'hinge']);

    writeFileSync(join(root, 'hinge', 'hinge.stl'), 'solid hinge');
    const second = await cli(profile, 'sync', root, '--settle-ms', '100');
    expect(second.code).toBe(0);
    expect((await api.listDocuments(design.id)).map((d) => d.name)).toEqual(['hinge.stl']);

    rmSync(join(root, 'hinge', 'hinge.stl'));
    const asked = await cli(profile, 'sync', root, '--settle-ms', '100');
    expect(asked.code).toBe(1);
    expect(asked.err).toMatch(/delete-remote hinge\/hinge\.stl: hinge\.stl was deleted from the folder hinge: confirm/);
    expect(await api.listDocuments(design.id)).toHaveLength(1);

    const confirmed = await cli(profile, 'sync', root, '--settle-ms', '100', '--confirm-deletes');
    expect(confirmed.out).toMatch(/confirmed: delete hinge\/hinge\.stl on the service/);
    expect(confirmed.code).toBe(0);
    expect(await api.listDocuments(design.id)).toEqual([]);

    const other = tempDir('cli-sync-other');
    world.removeAfter(other);
    await cli(other, '--service', world.service.url, 'login', '--with-token');
    const refused = await cli(other, 'sync', root);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/already the sync folder of another design-sync profile/);
    const own = await cli(other, 'sync', join(other, 'files'));
    expect(own.code).toBe(1);
    expect(own.err).toMatch(/profile directory/);
  });
});
