import { closeSync, openSync, writeSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** Starts recording the page's long tasks (over 50 ms on its main thread: Chromium's Long Tasks API). */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scope = globalThis as unknown as { longTasks: number[]; PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => { observe(options: object): void } };
    scope.longTasks = [];
    new scope.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) scope.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
}

/** The longest task recorded since watchLongTasks (0 when none went over 50 ms), after the page has had a frame. */
export async function longestTask(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const scope = globalThis as unknown as { longTasks: number[]; requestAnimationFrame(callback: () => void): void };
    await new Promise<void>((resolve) => scope.requestAnimationFrame(() => setTimeout(resolve, 200)));
    return Math.max(0, ...scope.longTasks);
  });
}

/**
 * Writes a binary STL of `triangles` small triangles filling a box of the given size (mm, Z up): the first triangle
 * spans the box from corner to corner, the others lie inside it (a fixed pseudo-random sequence), so the file
 * measures exactly width × depth × height. Written in blocks, never held whole. Returns its path.
 */
export function writeLargeStl(path: string, triangles: number, size: { width: number; depth: number; height: number }): string {
  const file = openSync(path, 'w');
  try {
    const header = Buffer.alloc(84);
    header.write('design-sync test: a large generated model', 0, 'ascii');
    header.writeUInt32LE(triangles, 80);
    writeSync(file, header);
    let seed = 1;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const perBlock = 20_000;
    for (let start = 0; start < triangles; start += perBlock) {
      const count = Math.min(perBlock, triangles - start);
      const block = Buffer.alloc(count * 50);
      for (let t = 0; t < count; t++) {
        const at = t * 50;
        const corners = start + t === 0
          ? [0, 0, 0, size.width, 0, 0, size.width, size.depth, size.height]
          : (() => {
            const x = next() * (size.width - 1), y = next() * (size.depth - 1), z = next() * (size.height - 1);
            return [x, y, z, x + 1, y, z, x, y + 1, z + 1];
          })();
        block.writeFloatLE(0, at);
        block.writeFloatLE(0, at + 4);
        block.writeFloatLE(1, at + 8);
        corners.forEach((value, k) => block.writeFloatLE(value, at + 12 + k * 4));
      }
      writeSync(file, block);
    }
  } finally {
    closeSync(file);
  }
  return path;
}
