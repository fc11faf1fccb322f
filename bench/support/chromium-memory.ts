import { Worker } from 'node:worker_threads';

/**
 * The memory of the Chromium this process started (its browser, renderer and GPU processes: every descendant whose
 * command is chromium), as the sum of their proportional set sizes (Linux's Pss: a page shared by n of them counts
 * 1/n in each, so the sum is what they hold together), sampled on a thread of its own: reading /proc for hundreds of
 * processes takes tens of milliseconds on a loaded machine, which on this process's own thread would hold back the
 * window's host and the bare page's server (both serve from here). The thread's code is plain JavaScript (no loader).
 */
const SAMPLER = `
const { readdirSync, readFileSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const root = workerData.root;
let pids = [];
let listedAt = 0;
function list() {
  const parents = new Map(), names = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\\d+$/.test(entry)) continue;
    let stat;
    try { stat = readFileSync('/proc/' + entry + '/stat', 'utf8'); } catch (error) { continue; /* gone meanwhile */ }
    const close = stat.lastIndexOf(')');
    names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
    parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
  }
  const ours = (pid) => { for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === root) return true; return false; };
  pids = [...names].filter(([pid, name]) => /chrom/i.test(name) && ours(pid)).map(([pid]) => pid);
}
function sample() {
  // The list of processes is read again every 2 s (Chromium starts a renderer or a GPU process now and then).
  if (Date.now() - listedAt > 2000) { list(); listedAt = Date.now(); }
  let kb = 0;
  for (const pid of pids) {
    try { kb += Number(/^Pss:\\s+(\\d+)/m.exec(readFileSync('/proc/' + pid + '/smaps_rollup', 'utf8'))?.[1] ?? 0); } catch (error) { /* gone: holds nothing */ }
  }
  return kb / 1024;
}
const startMb = sample();
let peakMb = startMb;
const timer = setInterval(() => { peakMb = Math.max(peakMb, sample()); }, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  listedAt = 0;
  peakMb = Math.max(peakMb, sample());
  parentPort.postMessage({ startMb, peakMb });
});
parentPort.postMessage({ ready: true });
`;

export interface ChromiumMemorySampler {
  /** Stops sampling: the figure when sampling began and the peak (MB). */
  stop(): Promise<{ startMb: number; peakMb: number }>;
}

/** Samples the Chromium processes' memory every `everyMs` until stopped (see SAMPLER); resolves once the first sample is taken. */
export async function sampleChromiumMemory(everyMs = 200): Promise<ChromiumMemorySampler> {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { root: process.pid, everyMs } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    async stop() {
      const result = new Promise<{ startMb: number; peakMb: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage('stop');
      try {
        return await result;
      } finally {
        await worker.terminate();
      }
    },
  };
}
