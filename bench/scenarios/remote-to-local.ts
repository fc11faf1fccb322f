import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileTokenStore } from '../../electron/engine/authorization/file-token-store';
import { ServiceClient } from '../../electron/engine/api/service-client';
import type { Engine } from '../../electron/engine/runtime/engine';
import { openEngine } from '../../electron/engine/runtime/open-engine';
import { DEFAULT_REMOTE_POLL_MS } from '../../electron/engine/sync/remote-watch';
import { memorySettingsStore } from '../../electron/engine/settings/settings-store';
import { startCountingProxy } from '../../harness/counting-proxy';
import { prepareUsers, startServiceProcess, type ServiceProcess } from '../../harness/service-process';
import { percentile, round, type ScenarioResult } from '../support/measure';
import { scratchDir } from '../support/service';
import { seededRandom } from '../../service/seed/seeded-random';

const DESIGNS = 5;
const FILES_PER_DESIGN = 2;
const IDLE_MS = 60_000;
const CHANGES = 10;
/** The changes are made at random times within this window (the whole run stays under ~3 minutes). */
const CHANGE_WINDOW_MS = 70_000;
/** `REMOTE_TO_LOCAL_POLL_MS` shortens the poll to look into a run (the figures are for the default). */
const POLL_MS = Number(process.env.REMOTE_TO_LOCAL_POLL_MS ?? DEFAULT_REMOTE_POLL_MS);
const ARRIVAL_DEADLINE_MS = POLL_MS * 2 + 15_000;

interface Doc { designId: number; folder: string; id: number; name: string; content: string }

/**
 * From a change made on the service (through its API, by "another computer") to the file in the sync folder, with
 * the engine working in the background as the app runs it (the default 30 s poll of the own designs' list), and
 * what the engine asks of the service while nothing changes. Requests are counted by a proxy in front of the
 * service (in its own process); the changes go to the service directly.
 */
export async function remoteToLocalScenario(): Promise<ScenarioResult> {
  const scratch = scratchDir('remote-to-local');
  const dataDir = join(scratch.path, 'service');
  mkdirSync(dataDir);
  const { watcher: token } = prepareUsers(dataDir, ['watcher']);
  let service: ServiceProcess | null = null;
  let proxy: Awaited<ReturnType<typeof startCountingProxy>> | null = null;
  let engine: Engine | null = null;
  try {
    service = await startServiceProcess({ dataDir });
    proxy = await startCountingProxy(service.url);
    const api = new ServiceClient({ baseUrl: service.url, token: () => token! });
    const source = join(scratch.path, 'source.stl');
    const upload = (content: string) => {
      writeFileSync(source, content);
      return { path: source };
    };
    const designs = [];
    const docs: Doc[] = [];
    for (let d = 0; d < DESIGNS; d++) {
      const design = await api.createDesign({ name: `Remote part ${d}`, excerpt: 'bench', license: 'cc0' });
      designs.push(design);
      for (let f = 0; f < FILES_PER_DESIGN; f++) {
        const content = `part ${d}-${f}`;
        const made = await api.uploadDocument(design.id, upload(content), { name: `part-${f}.stl` });
        docs.push({ designId: design.id, folder: '', id: made.id, name: `part-${f}.stl`, content });
      }
    }

    const profileDir = join(scratch.path, 'profile');
    const root = join(scratch.path, 'Designs');
    engine = await openEngine({
      profileDir, serviceUrl: proxy.url, userAgent: 'design-sync-bench', remotePollMs: POLL_MS,
      tokenStore: (paths) => new FileTokenStore(paths.tokenFile), settingsStore: () => memorySettingsStore(),
    });
    await engine.account.session.signInWithToken(proxy.url, token!);
    engine.sync.acceptContentPolicy();
    await engine.sync.chooseFolder(root);
    await engine.startBackground();
    const sync = engine.sync.syncParts().sync;
    const at = (doc: Doc) => join(root, doc.folder, doc.name);
    const deadline = Date.now() + 60_000;
    for (;;) {
      for (const doc of docs) doc.folder = sync.folders.ofDesign(doc.designId)?.folder ?? '';
      if (docs.every((doc) => doc.folder && existsSync(at(doc))) && engine.catalogue.lastPullAt() !== null) break;
      if (Date.now() > deadline) throw new Error('the first sync did not bring every file within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await sync.idle();

    // Idle: what the engine asks of the service in a minute with nothing changing.
    const idleFrom = proxy.seen.length;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idle = proxy.seen.slice(idleFrom);
    const idleNotModified = idle.filter((seen) => seen.status === 304).length;

    // Changes at random times; each one's arrival in the folder is watched for.
    const random = seededRandom(16);
    const times = Array.from({ length: CHANGES }, () => Math.floor(random() * CHANGE_WINDOW_MS)).sort((a, b) => a - b);
    // A document with a change on the way is not changed again before it arrives (the first change could never show).
    const pending: { kind: string; what: string; docId: number; made: number; arrived: () => boolean }[] = [];
    const latencies: { kind: string; ms: number }[] = [];
    const started = Date.now();
    const changesFrom = proxy.seen.length;
    let added = 0;
    const watch = setInterval(() => {
      for (const change of [...pending]) {
        if (!change.arrived()) continue;
        latencies.push({ kind: change.kind, ms: Date.now() - change.made });
        pending.splice(pending.indexOf(change), 1);
      }
    }, 50);
    try {
      for (const [n, time] of times.entries()) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + time - Date.now())));
        const free = docs.filter((candidate) => !pending.some((change) => change.docId === candidate.id));
        const kinds = free.length === 0 ? ['add'] : docs.length > DESIGNS ? ['add', 'replace', 'rename', 'delete'] : ['add', 'replace', 'rename'];
        const kind = kinds[Math.floor(random() * kinds.length)]!;
        const doc = (free.length > 0 ? free : docs)[Math.floor(random() * (free.length > 0 ? free : docs).length)]!;
        if (kind === 'add') {
          const fresh: Doc = { ...doc, name: `added-${++added}.stl`, content: `added ${n}`, id: 0 };
          fresh.id = (await api.uploadDocument(fresh.designId, upload(fresh.content), { name: fresh.name })).id;
          docs.push(fresh);
          pending.push({ kind, what: `${kind} ${fresh.folder}/${fresh.name}`, docId: fresh.id, made: Date.now(), arrived: () => existsSync(at(fresh)) && readFileSync(at(fresh), 'utf8') === fresh.content });
        } else if (kind === 'replace') {
          const content = `replaced ${n}`;
          await api.updateDocument(doc.designId, doc.id, {}, upload(content));
          doc.content = content;
          const target = { ...doc };
          pending.push({ kind, what: `${kind} ${doc.folder}/${doc.name}`, docId: doc.id, made: Date.now(), arrived: () => existsSync(at(target)) && readFileSync(at(target), 'utf8') === content });
        } else if (kind === 'rename') {
          const before = at(doc);
          doc.name = `renamed-${n}-${doc.name}`;
          await api.updateDocument(doc.designId, doc.id, { name: doc.name });
          const after = at(doc);
          pending.push({ kind, what: `${kind} ${doc.folder}/${doc.name}`, docId: doc.id, made: Date.now(), arrived: () => existsSync(after) && !existsSync(before) });
        } else {
          await api.deleteDocument(doc.designId, doc.id);
          docs.splice(docs.indexOf(doc), 1);
          const gone = at(doc);
          pending.push({ kind, what: `${kind} ${doc.folder}/${doc.name}`, docId: doc.id, made: Date.now(), arrived: () => !existsSync(gone) });
        }
      }
      const until = Date.now() + ARRIVAL_DEADLINE_MS;
      while (pending.length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      clearInterval(watch);
    }
    const changeRequests = proxy.seen.slice(changesFrom).length;
    const ms = latencies.map((latency) => latency.ms);
    const p95 = percentile(ms, 95);
    const perIdleMinute = idle.length / (IDLE_MS / 60_000);
    return {
      name: 'remote-to-local',
      // The service counts downloads in the designs' list: the poll after a download gets a 200 (and no pass follows).
      description: `${DESIGNS} own designs × ${FILES_PER_DESIGN} documents, the engine in the background (poll every ${POLL_MS / 1000} s); `
        + `${CHANGES} changes (add, replace, rename, delete) made through the service's API at random times over ${CHANGE_WINDOW_MS / 1000} s: from each change to the file in the folder; `
        + `and the requests the engine made in ${IDLE_MS / 1000} s with nothing changing (counted by a proxy)`,
      metrics: {
        changes: CHANGES,
        arrived: latencies.length,
        p50Ms: round(percentile(ms, 50), 0),
        p95Ms: round(p95, 0),
        maxMs: round(Math.max(...ms), 0),
        requestsPerIdleMinute: round(perIdleMinute, 1),
        idleRequestsAnswered304: idleNotModified,
        requestsDuringChanges: changeRequests,
        idleRequests: [...new Set(idle.map((seen) => `${seen.method} ${seen.path} ${seen.status}`))].join(', '),
        notArrived: pending.map((change) => change.what).join(', '),
      },
      goals: [
        { metric: 'p95Ms', target: '≤ 60000', met: latencies.length === CHANGES && p95 <= 60_000 },
        { metric: 'requestsPerIdleMinute', target: '≤ 2', met: perIdleMinute <= 2 },
      ],
    };
  } finally {
    await engine?.close();
    await proxy?.close();
    await service?.stop();
    scratch.dispose();
  }
}
