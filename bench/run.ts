import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_NODE_FLAGS } from '../electron/engine/runtime/engine-node-flags';
import { engineProcessArgs } from '../harness/engine-process';
import type { ScenarioResult } from './support/measure';
import { firstScan100kScenario, firstScanIgnoreScenario, firstScanScenario } from './scenarios/first-scan';
import { idleCpuScenario } from './scenarios/idle-cpu';
import { keepOfflineScenario } from './scenarios/keep-offline';
import { pullDesignsScenario } from './scenarios/pull-designs';
import { remoteToLocalScenario } from './scenarios/remote-to-local';
import { searchDesignsScenario, searchMillionScenario } from './scenarios/search-designs';
import { settleToUploadScenario } from './scenarios/settle-to-upload';
import { syncPassScenario } from './scenarios/sync-pass';
import { thumbnailsScenario } from './scenarios/thumbnails';
import { uploadThroughputScenario } from './scenarios/upload-throughput';
import { watcherCompareScenario } from './scenarios/watcher-compare';
import { windowFirstRenderScenario } from './scenarios/window-first-render';
import { windowMillionScenario } from './scenarios/window-million';
import { windowModelPreviewScenario } from './scenarios/window-model-preview';
import { windowScrollScenario } from './scenarios/window-scroll';
import { windowSearchScenario } from './scenarios/window-search';

/** Benchmarks, each against the real local service over loopback. `npm run bench [-- name …]` */
const SCENARIOS: Record<string, () => Promise<ScenarioResult>> = {
  'pull-10k': () => pullDesignsScenario('pull-10k', 10_000),
  'pull-100k': () => pullDesignsScenario('pull-100k', 100_000, 1),
  'search-100k': searchDesignsScenario,
  'upload-throughput': uploadThroughputScenario,
  'keep-offline': keepOfflineScenario,
  'settle-to-upload': settleToUploadScenario,
  'first-scan-10k': firstScanScenario,
  'first-scan-100k': firstScan100kScenario,
  'first-scan-ignore': firstScanIgnoreScenario,
  'idle-cpu': idleCpuScenario,
  'watcher-compare': watcherCompareScenario,
  'sync-pass': syncPassScenario,
  'remote-to-local': remoteToLocalScenario,
  'window-first-render': windowFirstRenderScenario,
  'window-search': windowSearchScenario,
  'window-scroll': windowScrollScenario,
  'search-1m': searchMillionScenario,
  'window-1m': () => windowMillionScenario(),
  'window-model-preview': windowModelPreviewScenario,
  thumbnails: thumbnailsScenario,
};

/**
 * Scenarios that take minutes: run only when named (`npm run bench -- search-1m`). window-1m keeps its filled
 * profile in the folder BENCH_WINDOW_1M_PROFILE names, and uses it as it is on the next run.
 */
const OPT_IN = new Set(['search-1m', 'window-1m']);

function table(results: ScenarioResult[]): string {
  const rows = [['scenario', 'metric', 'value', 'goal']];
  for (const result of results) {
    for (const [metric, value] of Object.entries(result.metrics)) {
      const goal = result.goals.find((g) => g.metric === metric);
      rows.push([result.name, metric, String(value), goal ? `${goal.target} ${goal.met ? 'met' : 'NOT MET'}` : '']);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

/**
 * Each scenario runs in a process of its own (`--child <name>`), so that one scenario's heap, timers and sockets
 * cannot show up in another's figures (idle CPU above all).
 */
async function runIsolated(name: string): Promise<ScenarioResult> {
  const child = spawn(process.execPath, engineProcessArgs(fileURLToPath(import.meta.url), '--child', name), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`benchmark ${name} failed (exit ${code}):\n${out}`);
  return JSON.parse(last) as ScenarioResult;
}

const childIndex = process.argv.indexOf('--child');
if (childIndex !== -1) {
  const name = process.argv[childIndex + 1]!;
  const result = await SCENARIOS[name]!();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !(name in SCENARIOS));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}\n`);
  process.exit(2);
}
const skipped = asked.length > 0 ? [] : [...OPT_IN];
if (skipped.length > 0) process.stderr.write(`skipping ${skipped.join(', ')} (minutes each; run by naming it: npm run bench -- ${skipped.join(' ')})\n`);
const results: ScenarioResult[] = [];
for (const name of asked.length > 0 ? asked : Object.keys(SCENARIOS).filter((name) => !OPT_IN.has(name))) {
  process.stderr.write(`running ${name}…\n`);
  results.push(await runIsolated(name));
}
const report = { date: new Date().toISOString(), node: process.version, nodeFlags: ENGINE_NODE_FLAGS.join(' '), cpus: cpus().length, results, skipped };
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${table(results)}\n\n${JSON.stringify(report, null, 2)}\n`);
