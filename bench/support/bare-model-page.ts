import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { build } from 'vite';
import { launchChromium, type LaunchedChromium } from '../../harness/chromium';
import type { BareTimes } from '../model-bare/bare-page';
import { sampleChromiumMemory } from './chromium-memory';

export type { BareTimes } from '../model-bare/bare-page';

export interface BareRun extends BareTimes {
  /** Chromium's processes together (Pss) before the load, at its peak, and the page's JavaScript heap once drawn. */
  memory: { chromiumStartMb: number; chromiumPeakMb: number; jsHeapUsedMb: number };
  longestTaskMs: number;
}

export interface BareModelPage {
  /** Loads `path` (of `type`: stl, 3mf, gcode) in a fresh page with a canvas of `width` × `height` CSS pixels. */
  load(path: string, type: string, canvas: { width: number; height: number }, viewport: { width: number; height: number }): Promise<BareRun>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * The bare page of three.js's own loaders (bench/model-bare), built by Vite as the window is (production, minified),
 * served from 127.0.0.1 with the model files beside it, in a Chromium launched as the window's is.
 */
export async function openBareModelPage(): Promise<BareModelPage> {
  const out = mkdtempSync(join(tmpdir(), 'design-sync-bench-bare-'));
  let server: Server | null = null;
  let chromium: LaunchedChromium | null = null;
  const models = new Map<string, string>();
  try {
    await build({ root: join(import.meta.dirname, '../model-bare'), configFile: false, logLevel: 'error', base: './', build: { outDir: out, emptyOutDir: true } });
    server = createServer((request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
      const model = path.startsWith('/models/') ? models.get(path.slice('/models/'.length)) : undefined;
      const file = model ?? join(out, path === '/' ? 'index.html' : path.replace(/^\/+/, ''));
      if (!model && (path.includes('..') || !file.startsWith(out))) {
        response.writeHead(400).end();
        return;
      }
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        // Nothing there: the page asked for something the bare page does not have.
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'Content-Type': model ? 'application/octet-stream' : (TYPES[extname(file)] ?? 'application/octet-stream'), 'Content-Length': size, 'Cache-Control': 'no-store' });
      createReadStream(file).pipe(response);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chromium = await launchChromium();
    const context = chromium.context;
    return {
      async load(path, type, canvas, viewport) {
        models.set(basename(path), path);
        const page = await context.newPage();
        try {
          await page.setViewportSize(viewport);
          const cdp = await context.newCDPSession(page);
          await cdp.send('Performance.enable');
          await page.goto(`${origin}/`);
          await page.waitForFunction(() => 'bareModel' in globalThis);
          await page.evaluate(() => {
            const scope = globalThis as unknown as { longTasks: number[]; PerformanceObserver: new (callback: (list: { getEntries(): { duration: number }[] }) => void) => { observe(options: object): void } };
            scope.longTasks = [];
            new scope.PerformanceObserver((list) => {
              for (const entry of list.getEntries()) scope.longTasks.push(entry.duration);
            }).observe({ type: 'longtask' });
          });
          let sampled: Promise<{ startMb: number; peakMb: number }> | undefined;
          const memory = await sampleChromiumMemory();
          const times = await page.evaluate(
            ([url, kind, width, height]) => (globalThis as unknown as { bareModel: { load(url: string, type: string, width: number, height: number): Promise<BareTimes> } }).bareModel.load(url, kind, width, height),
            [`/models/${encodeURIComponent(basename(path))}`, type, canvas.width, canvas.height] as const,
          ).finally(() => sampled = memory.stop());
          const { startMb, peakMb } = await sampled!;
          const metrics = (await cdp.send('Performance.getMetrics')).metrics;
          const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
          const longestTaskMs = await page.evaluate(() => Math.max(0, ...(globalThis as unknown as { longTasks: number[] }).longTasks));
          return { ...times, longestTaskMs, memory: { chromiumStartMb: startMb, chromiumPeakMb: peakMb, jsHeapUsedMb: heap / 1024 / 1024 } };
        } finally {
          await page.close();
          models.delete(basename(path));
        }
      },
      async close() {
        await chromium?.close();
        await new Promise((resolve) => server?.close(resolve));
        rmSync(out, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await chromium?.close();
    server?.close();
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
}
