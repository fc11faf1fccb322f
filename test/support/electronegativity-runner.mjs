#!/usr/bin/env node
/**
 * Runs Electronegativity (as a library) over each folder given and writes its findings as JSON to the output file:
 *   node test/support/electronegativity-runner.mjs <output.json> <folder>...
 * Offline and deterministic: Electronegativity fetches translations and Electron's release list over the network on
 * every run; its HTTP client (got) is replaced by one that fails at once, and the check that needs the release list
 * (AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK: is this Electron the newest of its line) is left to dependency updates.
 * Run in a process of its own: Electronegativity registers globals (its i18n `__`) and prints to the console.
 */
import { writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [output, ...folders] = process.argv.slice(2);
if (!output || folders.length === 0) {
  process.stderr.write('usage: electronegativity-runner.mjs <output.json> <folder>...\n');
  process.exit(2);
}

const require = createRequire(import.meta.url);
const home = dirname(require.resolve('@doyensec/electronegativity/package.json'));
const fromHome = createRequire(join(home, 'package.json'));
const gotPath = fromHome.resolve('got');
const offline = new Module(gotPath);
offline.loaded = true;
offline.exports = Object.assign(() => Promise.reject(new Error('offline: design-sync runs Electronegativity without the network')), { default: undefined });
offline.exports.default = offline.exports;
require.cache[gotPath] = offline;

const electronVersion = require('electron/package.json').version;
const runner = fromHome('./dist/runner.js');
const run = runner.default ?? runner;

const results = {};
for (const folder of folders) {
  const result = await run({ input: folder, isRelative: true, electronVersionOverride: electronVersion, excludeFromScan: ['AvailableSecurityFixesGlobalCheck'] });
  results[folder] = {
    errors: result.errors,
    findings: result.issues.map((issue) => ({
      id: issue.id,
      file: issue.file,
      line: issue.location?.line ?? 0,
      severity: issue.severity.name,
      severityValue: issue.severity.value,
      confidence: issue.confidence.name,
      description: issue.description,
      sample: issue.sample,
    })),
  };
}
writeFileSync(output, JSON.stringify(results, null, 1));
