#!/usr/bin/env -S node --max-semi-space-size=8
// `npm start` and `npm run demo`: the desktop app, or the same window in the browser where Electron cannot run.
import { register } from 'tsx/esm/api';

register();
const { launch } = await import('../electron/launcher/launch.ts');
process.exitCode = await launch(process.argv.slice(2));
