/**
 * The V8 flags the engine's Node processes start with: `design-sync` (its shebang), `npm start` and `npm run demo`
 * (which open the window in the browser where Electron cannot run), and the benchmarks' processes. Each of those
 * places names them itself (a shebang or an npm script cannot import this); test/engine/runtime/engine-node-flags.test.ts
 * holds them to this list.
 *
 * A young generation of 8 MB semi-spaces rather than V8's 16 MB here: the engine's old generation is small (about 20
 * MB live), and with the larger young generation V8 began a full mark-compact 2–4 times in every pull of 10,000 designs,
 * its marking on other threads. Without them a pull of 10,000 designs took 8–10 µs less CPU a design (40–48 against
 * 53–58 µs, in runs alternating the two), 100,000 designs 6–8 µs less.
 *
 * Electron's engine process (a utility process) is not started with them: Electron makes that process's V8 isolate
 * before it reads the arguments given to it, so they would not size its heap.
 */
export const ENGINE_NODE_FLAGS = ['--max-semi-space-size=8'] as const;
