#!/usr/bin/env node
// `npm test`'s checks before the tests: the two TypeScript projects and ESLint, side by side (each is one thread: on
// 2 cores the three take about the time of the longest instead of their sum). Each one's output is printed whole
// when it ends, under its name; the exit code is 1 when any failed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const checks = [
  { name: 'typecheck (engine, CLI, shell, tests)', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'typecheck (window)', command: bin('tsc'), args: ['-p', 'tsconfig.web.json', '--noEmit'] },
  { name: 'lint', command: bin('eslint'), args: ['.'] },
];

const results = await Promise.all(checks.map((check) => new Promise((resolve) => {
  const started = Date.now();
  const child = spawn(check.command, check.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  child.on('error', (error) => resolve({ ...check, code: 1, output: `${output}${error.message}\n`, ms: Date.now() - started }));
  child.on('close', (code) => resolve({ ...check, code: code ?? 1, output, ms: Date.now() - started }));
})));

for (const result of results) {
  process.stdout.write(`${result.code === 0 ? 'passed' : 'FAILED'}: ${result.name} (${(result.ms / 1000).toFixed(1)} s)\n`);
  if (result.output.trim()) process.stdout.write(`${result.output.trimEnd()}\n`);
}
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
