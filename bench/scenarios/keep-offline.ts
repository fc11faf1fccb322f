import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { ServiceClient } from '../../electron/engine/api/service-client';
import { MemoryTokenStore } from '../../electron/engine/authorization/memory-token-store';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { prepareUsers, startServiceProcess } from '../../harness/service-process';
import { MB, median, round, timed, type ScenarioResult } from '../support/measure';
import { processCpuMs, scratchDir } from '../support/service';

const DESIGNS = 20;
const DOCUMENTS_PER_DESIGN = 9;
const DOCUMENT_BYTES = 1 * MB;
/** A noise PNG of this side is about 1 MB (its grid and large renditions are what a kept design keeps). */
const IMAGE_SIDE = 580;
/** Rounds of each, alternating which goes first, each after a sync of the disk. */
const ROUNDS = 5;
/** curl's parallel transfers: as many as keeping downloads at once (DOWNLOADS_AT_ONCE in keep-offline/keep-offline.ts). */
const CURL_PARALLEL = 8;

/** CPU time (user + system, ms) of this process's children that ended and were waited for (curl), from /proc (Linux). */
function childrenCpuMs(): number {
  // Fields after the command name: cutime and cstime are the 14th and 15th, in clock ticks (100 a second).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ').at(-1)!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Every file the kept designs hold, fetched by one curl with --parallel into a folder (written to disk, as the cache does). */
function curlParallel(urls: readonly string[], dir: string): Promise<void> {
  const config = urls.map((url, i) => `url = "${url}"\noutput = "${join(dir, `file-${i}`)}"`).join('\n');
  const configPath = join(dir, 'curl.config');
  writeFileSync(configPath, config);
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['--parallel', '--parallel-max', String(CURL_PARALLEL), '-s', '--fail', '-K', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited ${code}: ${err}`))));
  });
}

/**
 * Keeping designs offline against fetching the same files with `curl --parallel`: a fresh profile pulls the catalogue
 * (its images evicted, so nothing is there before), keeps every design, and waits until all are ready.
 */
export async function keepOfflineScenario(): Promise<ScenarioResult> {
  const name = 'keep-offline';
  const description = `${DESIGNS} designs (${DOCUMENTS_PER_DESIGN} × 1 MB documents and a ~1 MB PNG each: their grid and large renditions kept) kept offline from a fresh profile, until all are ready, vs curl --parallel (8 at a time, as keeping) fetching the same files into a folder (median of ${ROUNDS} rounds, alternating which goes first, each after a sync of the disk)`;
  if (spawnSync('curl', ['--version']).error) return { name, description, metrics: { curl: 'missing: install curl to compare' }, goals: [] };
  const scratch = scratchDir('keep-offline');
  const dataDir = join(scratch.path, 'service');
  mkdirSync(dataDir);
  const token = prepareUsers(dataDir, ['bench']).bench!;
  const service = await startServiceProcess({ dataDir });
  try {
    const api = new ServiceClient({ baseUrl: service.url, token: () => token });
    const files = join(scratch.path, 'files');
    mkdirSync(files);
    const ids: number[] = [];
    for (let d = 0; d < DESIGNS; d++) {
      const design = await api.createDesign({ name: `Kept ${d}`, excerpt: 'bench', license: 'cc0' });
      const png = join(files, `view-${d}.png`);
      writeFileSync(png, await sharp(randomBytes(IMAGE_SIDE * IMAGE_SIDE * 3), { raw: { width: IMAGE_SIDE, height: IMAGE_SIDE, channels: 3 } }).png().toBuffer());
      await api.uploadImage(design.id, { path: png });
      for (let i = 0; i < DOCUMENTS_PER_DESIGN; i++) {
        const path = join(files, `part-${d}-${i}.stl`);
        writeFileSync(path, randomBytes(DOCUMENT_BYTES));
        await api.uploadDocument(design.id, { path });
      }
      await api.publishDesign(design.id);
      ids.push(design.id);
    }

    const keptMs: number[] = [];
    const curlMs: number[] = [];
    /** CPU of the engine (this process, its threads included), of the service while keeping, of curl and the service while curl fetches. */
    const keepCpuMs: number[] = [];
    const serviceKeepCpuMs: number[] = [];
    const curlCpuMs: number[] = [];
    const serviceCurlCpuMs: number[] = [];
    const serviceCpu = () => processCpuMs(service.child.pid) ?? Number.NaN;
    let urls: string[] = [];
    let totalBytes = 0;
    const keepRound = async (round_: number) => {
      spawnSync('sync');
      const profile = join(scratch.path, `profile-${round_}`);
      const engine = await openEngine({ profileDir: profile, serviceUrl: service.url, userAgent: 'design-sync-bench', tokenStore: () => new MemoryTokenStore(token), settingsStore: () => memorySettingsStore() });
      try {
        await engine.catalogue.pullNow();
        // The pull brought the newest covers: none is there before keeping starts.
        const limit = engine.cache.files.maxBytes;
        engine.cache.files.setLimit(0);
        engine.cache.files.setLimit(limit);
        const cpuBefore = process.cpuUsage();
        const serviceBefore = serviceCpu();
        const { ms } = await timed(async () => {
          engine.keepOffline.keep(ids);
          await engine.keepOffline.whenIdle();
        });
        const cpu = process.cpuUsage(cpuBefore);
        keepCpuMs.push((cpu.user + cpu.system) / 1000);
        serviceKeepCpuMs.push(serviceCpu() - serviceBefore);
        const kept = engine.keepOffline.list();
        const notReady = kept.filter((design) => design.state !== 'ready');
        if (notReady.length > 0) throw new Error(`${notReady.length} kept designs are not ready: ${notReady[0]!.state} ${notReady[0]!.problem ?? ''}`);
        keptMs.push(ms);
        totalBytes = engine.keepOffline.keptBytes();
        urls = (engine.cache.reader.prepare('SELECT url FROM kept_files').pluck().all() as string[])
          .map((url) => { const at = new URL(url, service.url); at.searchParams.set('auth_token', token); return at.toString(); });
      } finally {
        await engine.close();
      }
    };
    const curlRound = async (round_: number) => {
      spawnSync('sync');
      const dir = join(scratch.path, `curl-${round_}`);
      mkdirSync(dir);
      const cpuBefore = childrenCpuMs();
      const serviceBefore = serviceCpu();
      curlMs.push((await timed(() => curlParallel(urls, dir))).ms);
      curlCpuMs.push(childrenCpuMs() - cpuBefore);
      serviceCurlCpuMs.push(serviceCpu() - serviceBefore);
    };
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      // The first round keeps first (it names the files curl fetches); then the order alternates.
      const curlFirst = round_ % 2 === 1;
      if (curlFirst) await curlRound(round_);
      await keepRound(round_);
      if (!curlFirst) await curlRound(round_);
    }
    const ratio = median(curlMs) / median(keptMs);
    return {
      name, description,
      metrics: {
        designs: DESIGNS,
        files: urls.length,
        totalMb: round(totalBytes / MB, 1),
        keepMs: round(median(keptMs), 0),
        curlMs: round(median(curlMs), 0),
        keepMBps: round(totalBytes / MB / (median(keptMs) / 1000), 1),
        ratio: round(ratio, 2),
        keepRoundsMs: keptMs.map((ms) => round(ms, 0)).join(' '),
        curlRoundsMs: curlMs.map((ms) => round(ms, 0)).join(' '),
        keepCpuMs: round(median(keepCpuMs), 0),
        serviceCpuWhileKeepingMs: round(median(serviceKeepCpuMs), 0),
        curlCpuMs: round(median(curlCpuMs), 0),
        serviceCpuWhileCurlMs: round(median(serviceCurlCpuMs), 0),
        loadAverage: round(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]), 1),
      },
      goals: [{ metric: 'ratio', target: '≥ 0.9 (curl --parallel time / keep time)', met: ratio >= 0.9 }],
    };
  } finally {
    await service.stop();
    scratch.dispose();
  }
}
