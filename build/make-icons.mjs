#!/usr/bin/env node
/**
 * Makes the app's icons from build/icon.svg (run by hand after changing it; the results are committed):
 *   build/icon.png (1024), build/icons/<n>x<n>.png (Linux icon set, 16-512), build/icon.ico (Windows, 16-256),
 *   build/icon.icns (macOS, 16-1024). ICO and ICNS hold PNG images, which both formats accept, so electron-builder
 *   never has to convert (its converter is a tool it would download).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const BUILD = dirname(fileURLToPath(import.meta.url));
const svg = await readFile(join(BUILD, 'icon.svg'));
const png = (size) => sharp(svg, { density: Math.ceil((72 * size) / 1024) * 4 }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map(({ data }) => data)]);
}

const ICNS_TYPES = { icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };
function icns(pngsBySize) {
  const chunks = Object.entries(ICNS_TYPES).map(([type, size]) => {
    const data = pngsBySize.get(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + chunks.reduce((total, chunk) => total + chunk.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const pngs = new Map(await Promise.all(sizes.map(async (size) => [size, await png(size)])));
await mkdir(join(BUILD, 'icons'), { recursive: true });
await writeFile(join(BUILD, 'icon.png'), pngs.get(1024));
for (const size of [16, 32, 48, 64, 128, 256, 512]) await writeFile(join(BUILD, 'icons', `${size}x${size}.png`), pngs.get(size));
await writeFile(join(BUILD, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, data: pngs.get(size) }))));
await writeFile(join(BUILD, 'icon.icns'), icns(pngs));
process.stdout.write('build/icon.png, build/icons/*.png, build/icon.ico, build/icon.icns\n');
