/** Percentile by nearest rank of already collected samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export const MB = 1024 * 1024;

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Samples this process's resident memory while `work` runs; reports the peak above the start. */
export async function withMemoryPeak<T>(work: () => Promise<T>): Promise<{ result: T; rssStartMb: number; rssPeakMb: number; rssGrowthMb: number }> {
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, rssStartMb: round(start / MB, 1), rssPeakMb: round(peak / MB, 1), rssGrowthMb: round((peak - start) / MB, 1) };
  } finally {
    clearInterval(timer);
  }
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** This process's CPU while it idles for `durationMs`: in total and per window of `windowMs` (% of one core each). */
export interface IdleCpu {
  wallMs: number;
  cpuMs: number;
  percentOfOneCore: number;
  /** A one-off (a late garbage collection) shows in one window, a steady cost in all of them. */
  medianWindowPercent: number;
  maxWindowPercent: number;
  windows: number;
}

export async function idleCpu(durationMs: number, windowMs: number): Promise<IdleCpu> {
  const percents: number[] = [];
  let cpuMs = 0;
  const started = performance.now();
  for (let left = durationMs; left > 0; left -= windowMs) {
    const before = process.cpuUsage();
    const windowStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, Math.min(windowMs, left)));
    const used = process.cpuUsage(before);
    const windowCpuMs = (used.user + used.system) / 1000;
    cpuMs += windowCpuMs;
    percents.push((windowCpuMs / (performance.now() - windowStarted)) * 100);
  }
  const wallMs = performance.now() - started;
  return {
    wallMs, cpuMs, percentOfOneCore: (cpuMs / wallMs) * 100,
    medianWindowPercent: median(percents), maxWindowPercent: Math.max(...percents), windows: percents.length,
  };
}

export interface Goal {
  metric: string;
  /** e.g. "≤ 1.3" */
  target: string;
  met: boolean;
}

export interface ScenarioResult {
  name: string;
  description: string;
  metrics: Record<string, number | string>;
  goals: Goal[];
}
