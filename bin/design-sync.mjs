#!/usr/bin/env -S node --max-semi-space-size=8
// Runs the TypeScript CLI through tsx, so the engine needs no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../electron/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
