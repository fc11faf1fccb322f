import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWithTestService } from '../../support/cli';
import { tempDir } from '../cache/cache-fixtures';
import { clientFor } from '../../../harness/sync-computers';

const world = useCliWithTestService('ignore-maker');
const { cli } = world;

describe('design-sync ignore', () => {
  it('adds and removes patterns, says what is held back and why, and what status and sync say of it', async () => {
    const api = clientFor(world.service.url, world.token);
    const design = await api.createDesign({ name: 'Gear', excerpt: 'A gear', license: 'cc0' });
    const profile = tempDir('cli-ignore-profile');
    const root = join(tempDir('cli-ignore-root'), 'Designs');
    world.removeAfter(profile, join(root, '..'));
    expect((await cli(profile, '--service', world.service.url, 'login', '--with-token')).code).toBe(0);

    const noFolder = await cli(profile, 'ignore', 'add', '*.bak');
    expect(noFolder.code).toBe(1);
    expect(noFolder.err).toMatch(/No sync folder is chosen yet: the ignore file is kept in it/);

    expect((await cli(profile, 'sync', root, '--accept-content-policy', '--settle-ms', '100')).code).toBe(0);
    for (const name of ['gear.stl', 'gear.blend', 'gear.blend1', 'gear.autosave']) writeFileSync(join(root, 'gear', name), name);
    mkdirSync(join(root, 'gear', 'renders'));
    const added = await cli(profile, 'ignore', 'add', '*.autosave', 'renders/');
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    expect(added.out).toContain(`Added to ${join(root, '.designsyncignore')}: *.autosave, renders/.`);
    expect(added.out).toContain('Blender backups: 1 not sent (built-in list, Blender): gear/gear.blend1');
    expect(added.out).toContain('1 not sent by *.autosave (line 1 of .designsyncignore): gear/gear.autosave');
    expect(added.out).toContain('1 not sent by renders/ (line 2 of .designsyncignore): gear/renders/');
    expect(readFileSync(join(root, '.designsyncignore'), 'utf8')).toBe('*.autosave\nrenders/\n');

    const synced = await cli(profile, 'sync', root, '--settle-ms', '100');
    expect(synced.code).toBe(0);
    expect(synced.out).toMatch(/3 never sent \(design-sync ignore says why\)/);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['gear.blend', 'gear.stl']);

    const status = await cli(profile, 'status');
    expect(status.out).toContain('Never sent (design-sync ignore says why and how to change it):');
    expect(status.out).toContain('Blender backups: 1 not sent (built-in list, Blender): gear/gear.blend1');

    const check = await cli(profile, 'ignore', 'check', 'gear/gear.blend1', join(root, 'gear', 'gear.stl'), 'gear/renders');
    expect(check.out.trim().split('\n')).toEqual([
      'gear/gear.blend1: never sent (Blender backups, built-in list (Blender))',
      'gear/gear.stl: sent',
      'gear/renders/: never sent (line 2 of .designsyncignore: renders/)',
    ]);

    const shown = await cli(profile, 'ignore');
    expect(shown.out).toContain('  *.autosave\n  renders/');
    expect(shown.out).toMatch(/Built-in: \d+ entries/);
    const builtIn = await cli(profile, 'ignore', '--built-in');
    expect(builtIn.out).toContain('Blender — Blender backups: *.blend[1-9]');
    expect(builtIn.out).toContain('https://docs.blender.org/');

    const unknown = await cli(profile, 'ignore', 'remove', '*.tmp');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('.designsyncignore has no line "*.tmp": design-sync ignore lists its lines.');
    const removed = await cli(profile, 'ignore', 'remove', '*.autosave');
    expect(removed.code).toBe(0);
    expect(readFileSync(join(root, '.designsyncignore'), 'utf8')).toBe('renders/\n');
    expect((await cli(profile, 'sync', root, '--settle-ms', '100')).code).toBe(0);
    expect((await api.listDocuments(design.id)).map((d) => d.name).sort()).toEqual(['gear.autosave', 'gear.blend', 'gear.stl']);

    const refused = await cli(profile, 'ignore', 'add', 'renders\\old');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('Line 2 of .designsyncignore: “renders\\old” holds a backslash: write folders with /');
    expect(readFileSync(join(root, '.designsyncignore'), 'utf8')).toBe('renders/\n');
  }, 60_000);
});
