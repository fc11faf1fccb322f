import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../cli/main';
import { NODE_FOR_CHILDREN } from '../engine/sample-service/service-command';
import { findElectronBinary } from './electron-binary';
import { launchArguments } from './launch-arguments';

const ROOT = join(import.meta.dirname, '..', '..');

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${[command, ...args].join(' ')} failed (exit ${code})`))));
  });
}

/** Starts the local service with the demo's sample designs and resolves once it listens (its stdout says so). */
function startDemoService(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['electron/launcher/run-source.mjs', 'service/cli.ts', '--port', '4010', '--data', '.data/demo', '--demo'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        process.stdout.write(out);
        child.stdout!.removeAllListeners('data');
        child.stdout!.pipe(process.stdout);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`the local service stopped (exit ${code}); is port 4010 in use?`)));
  });
}

/**
 * `npm start` / `npm run demo`: builds the window and the shell, then opens the desktop app where Electron's binary is
 * installed; where it is not (machines without internet cannot fetch it), says so in one line and opens the same
 * window in the browser through `design-sync ui`. With `--demo`, the local service with sample designs first, and a
 * profile of its own pointed at it. `--profile <dir>` and `--service <url>` go through to the app.
 */
export async function launch(argv: string[]): Promise<number> {
  const { demo, appArgs: profileArgs, unknown } = launchArguments(argv, { root: ROOT, cwd: process.env.INIT_CWD ?? process.cwd() });
  if (unknown.length > 0) process.stderr.write(`Not understood, left out: ${unknown.join(' ')} (npm start takes --service <url>, --profile <dir> and --demo).\n`);
  await run(process.execPath, [join(ROOT, 'build', 'build-window.mjs'), '--quiet']);
  await run(process.execPath, [join(ROOT, 'build', 'build-shell.mjs')]);
  const service = demo ? await startDemoService() : null;
  try {
    const electron = findElectronBinary(join(ROOT, 'node_modules', 'electron'));
    if (electron.ok) {
      // The app's engine runs the sample service (a profile trying it) with this Node: its native modules are Node's.
      const app = spawn(electron.path, [ROOT, ...profileArgs], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, [NODE_FOR_CHILDREN]: process.execPath } });
      return await new Promise<number>((resolve) => app.once('exit', (code) => resolve(code ?? 0)));
    }
    process.stdout.write(`No desktop window here: ${electron.reason}. Opening the same window in your browser instead (design-sync ui).\n`);
    return await runCli([...profileArgs, 'ui']);
  } finally {
    service?.kill('SIGTERM');
  }
}
