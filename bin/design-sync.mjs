#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the TypeScript CLI without a build step: from a bundle of its source kept until a file changes, or through tsx
// (electron/launcher/source-bundle.mjs).
import { importFromSource } from '../electron/launcher/source-bundle.mjs';

const { runCli } = await importFromSource(new URL('../electron/cli/main.ts', import.meta.url));
process.exitCode = await runCli(process.argv.slice(2));
