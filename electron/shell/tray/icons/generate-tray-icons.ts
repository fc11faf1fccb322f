/**
 * Draws the tray's icons: one per state, 16 px and 32 px (@2x), from SVG with sharp. Run after changing a drawing:
 *   npx tsx electron/shell/tray/icons/generate-tray-icons.ts
 * A disc in the state's colour (the window's palette, renderer/src/styles.css) with a white sign, ringed in white so
 * that it reads on light and dark panels alike.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { TRAY_STATES, type TrayState } from '../tray-state';

const COLOURS: Record<TrayState, string> = {
  'up-to-date': '#1d7a3c',
  syncing: '#1f5fd1',
  paused: '#9a5b00',
  offline: '#9a5b00',
  'needs-attention': '#b42318',
  error: '#b42318',
  'signed-out': '#59616d',
  'not-set-up': '#59616d',
};

const WHITE = 'stroke="#fff" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round" fill="none"';
const SIGNS: Record<TrayState, string> = {
  'up-to-date': `<path d="M10 16.5l4 4 8-9" ${WHITE}/>`,
  syncing: `<path d="M10 14a6.5 6.5 0 0 1 11.5-2.5M22 18a6.5 6.5 0 0 1-11.5 2.5" ${WHITE}/><path d="M22.5 8v4h-4M9.5 24v-4h4" ${WHITE}/>`,
  paused: `<path d="M13 10.5v11M19 10.5v11" ${WHITE}/>`,
  offline: `<path d="M10 22L22 10" ${WHITE}/><circle cx="16" cy="16" r="6.5" ${WHITE}/>`,
  'needs-attention': `<path d="M16 9.5v8" ${WHITE}/><circle cx="16" cy="22.5" r="1.9" fill="#fff"/>`,
  error: `<path d="M11.5 11.5l9 9M20.5 11.5l-9 9" ${WHITE}/>`,
  'signed-out': `<circle cx="16" cy="13" r="3.6" ${WHITE}/><path d="M9.8 23.2a6.5 6.5 0 0 1 12.4 0" ${WHITE}/>`,
  'not-set-up': `<circle cx="16" cy="16" r="2.4" fill="#fff"/>`,
};

export function traySvg(state: TrayState): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14.5" fill="${COLOURS[state]}" stroke="#fff" stroke-width="1.5"/>${SIGNS[state]}</svg>`;
}

async function main(): Promise<void> {
  const dir = import.meta.dirname;
  for (const state of TRAY_STATES) {
    for (const [size, suffix] of [[16, ''], [32, '@2x']] as const) {
      const png = await sharp(Buffer.from(traySvg(state)), { density: 72 * (size / 32) * 4 }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();
      await writeFile(join(dir, `tray-${state}${suffix}.png`), png);
    }
  }
  console.log(`Wrote ${TRAY_STATES.length * 2} tray icons to ${dir}`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
