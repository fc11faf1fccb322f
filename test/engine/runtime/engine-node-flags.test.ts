import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { engineProcessArgs } from '../../../harness/engine-process';
import { ENGINE_NODE_FLAGS } from '../../../electron/engine/runtime/engine-node-flags';

const REPO = join(import.meta.dirname, '../../..');
const FLAGS = ENGINE_NODE_FLAGS.join(' ');
const firstLine = (path: string) => readFileSync(join(REPO, path), 'utf8').split('\n')[0];

describe('the engine\'s V8 flags', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('are named by every way the engine\'s Node processes start: the command, npm start and demo, the benchmarks', () => {
    expect(firstLine('bin/design-sync.mjs')).toBe(`#!/usr/bin/env -S node ${FLAGS}`);
    expect(firstLine('bin/start.mjs')).toBe(`#!/usr/bin/env -S node ${FLAGS}`);
    const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe(`node ${FLAGS} bin/start.mjs`);
    expect(scripts.demo).toBe(`node ${FLAGS} bin/start.mjs --demo`);
    expect(scripts.cli).toBe(`node ${FLAGS} bin/design-sync.mjs`);
    expect(engineProcessArgs('scenario.ts', 'x').slice(0, ENGINE_NODE_FLAGS.length)).toEqual([...ENGINE_NODE_FLAGS]);
  });

  it('reach Node when design-sync is run as a command (through its first line), as its diagnostics show', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'design-sync-flags-'));
    made.push(profile);
    const { stdout } = await promisify(execFile)(join(REPO, 'bin/design-sync.mjs'), ['--profile', profile, 'status', '--diagnostics'], { cwd: REPO });
    expect(stdout).toContain(`\nNode flags: ${FLAGS}\n`);
  });
});
