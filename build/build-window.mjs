#!/usr/bin/env node
// Builds the window into dist/renderer/ and its first frame's renderer (drawn by `design-sync ui` into the page it
// serves) into dist/first-frame/. `npm run build:window`; `npm start` runs it too.
import { join } from 'node:path';
import { build } from 'vite';

const root = join(import.meta.dirname, '..');
const logLevel = process.argv.includes('--quiet') ? 'warn' : 'info';
await build({ configFile: join(root, 'renderer.vite.config.ts'), logLevel });
await build({ configFile: join(root, 'renderer-first-frame.vite.config.ts'), logLevel });
