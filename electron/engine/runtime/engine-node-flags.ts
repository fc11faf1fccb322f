/**
 * The V8 flags the engine's Node processes start with: `design-sync` (its shebang), `npm start` and `npm run demo`
 * (which open the window in the browser where Electron cannot run), and the benchmarks' processes. Each of those
 * places names them itself (a shebang or an npm script cannot import this); test/engine/runtime/engine-node-flags.test.ts
 * holds them to this list.
 *
 * A young generation of 8 MB semi-spaces rather than V8's 16 MB here: the engine's old generation is small (about 20
 * MB live), and with the larger young generation V8 began a full mark-compact 2–4 times in every pull of 10,000 designs,
 * its marking on other threads. With 8 MB semi-spaces there was none, and pulls took less CPU, in processes alternating
 * the two: 38–46 µs a design against 49–59 at 10,000 designs (the median of each process's pulls after its first),
 * 50–53 against 58–64 at 100,000.
 *
 * Electron's engine process (a utility process) is not started with them: Electron makes that process's V8 isolate
 * before it reads the arguments given to it, so they would not size its heap.
 */
export const ENGINE_NODE_FLAGS = ['--max-semi-space-size=8'] as const;
