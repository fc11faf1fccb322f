#!/usr/bin/env -S node --max-semi-space-size=8
// `npm start` and `npm run demo`: the desktop app, or the same window in the browser where Electron cannot run. The
// TypeScript runs from a bundle of its source kept until a file changes, or through tsx (electron/launcher/source-bundle.mjs).
import { importFromSource } from '../electron/launcher/source-bundle.mjs';

const { launch } = await importFromSource(new URL('../electron/launcher/launch.ts', import.meta.url));
process.exitCode = await launch(process.argv.slice(2));
