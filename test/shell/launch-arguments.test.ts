import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_SERVICE, launchArguments } from '../../electron/launcher/launch-arguments';
import { parseShellArguments } from '../../electron/shell/main/shell-arguments';

// The code under test needs none of Electron; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const where = { root: '/checkout', cwd: '/home/ada/work' };

describe('npm start\'s arguments (launchArguments)', () => {
  it('passes nothing on by default: the app uses its own profile and that profile\'s service', () => {
    expect(launchArguments([], where)).toEqual({ demo: false, profile: null, service: null, unknown: [], appArgs: [] });
  });

  it('passes --service <url> and --profile <dir> through to the app, in both spellings', () => {
    expect(launchArguments(['--service', 'https://api.example.com', '--profile', '/tmp/p'], where).appArgs).toEqual(['--profile', '/tmp/p', '--service', 'https://api.example.com']);
    expect(launchArguments(['--service=https://api.example.com', '--profile=/tmp/p'], where).appArgs).toEqual(['--profile', '/tmp/p', '--service', 'https://api.example.com']);
  });

  it('takes a relative profile from where the command was typed', () => {
    expect(launchArguments(['--profile', 'mine'], where).profile).toBe(join('/home/ada/work', 'mine'));
  });

  it('--demo: the demo\'s profile and the local service, unless told otherwise', () => {
    expect(launchArguments(['--demo'], where)).toMatchObject({ demo: true, appArgs: ['--profile', join('/checkout', '.data', 'demo-profile'), '--service', DEMO_SERVICE] });
    expect(launchArguments(['--demo', '--profile', '/tmp/mine'], where).appArgs).toEqual(['--profile', '/tmp/mine', '--service', DEMO_SERVICE]);
  });

  it('names what it did not understand, including an option without its value', () => {
    expect(launchArguments(['--verbose', '--service'], where)).toMatchObject({ unknown: ['--verbose', '--service'], appArgs: [] });
    expect(launchArguments(['--service', '--demo'], where)).toMatchObject({ demo: true, unknown: ['--service'], service: DEMO_SERVICE });
  });

  it('gives the Electron app arguments its main process reads back the same', () => {
    const { appArgs } = launchArguments(['--service', 'http://127.0.0.1:4010', '--profile', '/tmp/p'], where);
    expect(parseShellArguments(['/checkout', ...appArgs])).toEqual({ profile: '/tmp/p', service: 'http://127.0.0.1:4010', hidden: false });
  });
});
