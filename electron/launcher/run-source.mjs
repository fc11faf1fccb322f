#!/usr/bin/env node
// @ts-check
/**
 * `node electron/launcher/run-source.mjs <program.ts> [arguments]`: runs a TypeScript program of this checkout (the
 * local service, a test's child process) from a bundle of its source kept until a file changes, or through tsx
 * (source-bundle.mjs). The program sees itself as `node <program.ts> [arguments]` in process.argv.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importFromSource } from './source-bundle.mjs';

const [program, ...args] = process.argv.slice(2);
if (!program) {
  process.stderr.write('usage: node electron/launcher/run-source.mjs <program.ts> [arguments]\n');
  process.exit(2);
}
const source = resolve(program);
process.argv.splice(1, process.argv.length - 1, source, ...args);
await importFromSource(pathToFileURL(source));
