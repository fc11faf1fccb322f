/**
 * The driver of the sync fuzz test: the real CLI (`design-sync sync <folder> --watch`) in a child process that can
 * be killed with SIGKILL at any moment and started again; fault injection through the service's loopback admin
 * endpoint; the user's designs and files on the service; the profile's sync database and the trash, read from outside.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document, Image, UserDesign } from '../../../../shared';
import { ServiceClient } from '../../../../electron/engine/api/service-client';
import { QueueStore } from '../../../../electron/engine/queue/queue-store';
import type { QueueItem } from '../../../../electron/engine/queue/queue-item';
import { DesignFolders, type DesignFolder } from '../../../../electron/engine/sync-state/design-folders';
import { openSyncDatabase } from '../../../../electron/engine/sync-state/sync-database';
import type { FaultRule, KillAt } from './steps';
import { sha1 } from './world';

const REPO = join(import.meta.dirname, '../../../..');
const CLI = join(REPO, 'bin/design-sync.mjs');

/** One run's places: the profile, the sync folder, a home of its own (the system trash of the CLI lands in it). */
export interface FuzzPaths { dir: string; profile: string; root: string; home: string; scratch: string }

const MILESTONES: Record<KillAt, RegExp> = { start: /^sync folder: /m, folder: /^folder made: /m, queued: /^queued: /m, watching: /^watching; /m };
const TRASHED = /^moved to (.+): (.+) \(deleted on the service\)$/gm;

function childEnv(paths: FuzzPaths): NodeJS.ProcessEnv {
  return { ...process.env, HOME: paths.home, XDG_DATA_HOME: join(paths.home, '.local/share'), DESIGN_SYNC_PROFILE: paths.profile };
}

/** `design-sync --profile <p> <args>` as a child process, its output kept. */
export class CliProcess {
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private killedByUs = false;
  /** stop() had to use SIGKILL: Ctrl-C did not end it in time. */
  stoppedHard = false;
  readonly startedAt = Date.now();
  endedAt: number | null = null;

  constructor(paths: FuzzPaths, args: string[]) {
    this.child = spawn(process.execPath, [CLI, '--profile', paths.profile, ...args], { cwd: REPO, env: childEnv(paths), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => {
      this.endedAt = Date.now();
      resolve({ code, signal });
    }));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Whether it ended on its own (not by our SIGKILL or SIGINT). */
  get exitedByItself(): boolean {
    return !this.running && !this.killedByUs;
  }

  /** Waits until the output holds the milestone's line; false when it did not come in time or the process ended. */
  async milestone(at: KillAt, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!MILESTONES[at].test(this.output)) {
      if (!this.running || Date.now() > deadline) return false;
      await sleep(5);
    }
    return true;
  }

  async kill(): Promise<void> {
    this.killedByUs = true;
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Ctrl-C (uploads under way get their few seconds), then SIGKILL if it is still there after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    this.killedByUs = true;
    if (!this.running) return;
    this.child.kill('SIGINT');
    const timer = setTimeout(() => {
      this.stoppedHard = true;
      this.child.kill('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** The files it said it moved to the trash, with where. */
  trashed(): { where: string; path: string }[] {
    return [...this.output.matchAll(TRASHED)].map((m) => ({ where: m[1]!, path: m[2]! }));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fault rules in force, set through /__admin/faults; lifted while the test itself changes the service. */
export class Faults {
  private rules: FaultRule[] = [];

  constructor(private readonly url: string, private readonly note: (text: string) => void) {}

  get active(): readonly FaultRule[] {
    return this.rules;
  }

  async add(rule: FaultRule): Promise<void> {
    this.rules.push(rule);
    await this.post(rule);
  }

  async clear(): Promise<void> {
    this.rules = [];
    await fetch(new URL('/__admin/faults', this.url), { method: 'DELETE' });
  }

  /** Runs the test's own request without faults, then sets the same rules again. */
  async lifted<T>(work: () => Promise<T>): Promise<T> {
    if (this.rules.length === 0) return work();
    await fetch(new URL('/__admin/faults', this.url), { method: 'DELETE' });
    try {
      return await work();
    } finally {
      for (const rule of this.rules) await this.post(rule);
    }
  }

  private async post(rule: FaultRule): Promise<void> {
    const send = (body: FaultRule) => fetch(new URL('/__admin/faults', this.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let response = await send(rule);
    if (response.status === 400 && rule.kind === 'slow_answer') {
      // A service without slow_answer (before it was added): the nearest fault it has.
      this.note('this service has no slow_answer fault: latency instead');
      response = await send({ ...rule, kind: 'latency' });
    }
    if (response.status !== 201) throw new Error(`fault rule refused (${response.status}): ${await response.text()}`);
  }
}

export interface RemoteFile { kind: 'image' | 'document'; id: number; name: string; sha1: string; url: string | null }

/** The user's designs and their files on the service, with the SHA-1 of every file (images are downloaded once per version). */
export class ServiceSide {
  readonly api: ServiceClient;
  private readonly imageHashes = new Map<string, string>();
  private userId: number | null = null;

  constructor(readonly url: string, readonly token: string) {
    this.api = new ServiceClient({ baseUrl: url, token: () => token, retry: { retries: 2, minDelayMs: 20, maxDelayMs: 100 } });
  }

  async designs(): Promise<UserDesign[]> {
    this.userId ??= (await this.api.whoami()).id;
    const all: UserDesign[] = [];
    for await (const page of this.api.allPages<UserDesign>(`/v1/users/${this.userId}/designs`, { limit: 100 })) all.push(...page.items);
    return all.sort((a, b) => a.id - b.id);
  }

  async files(designId: number): Promise<RemoteFile[]> {
    const [images, documents] = await Promise.all([this.api.listImages(designId), this.api.listDocuments(designId)]);
    const files: RemoteFile[] = [];
    for (const image of images) files.push({ kind: 'image', id: image.id, name: image.name, sha1: await this.imageHash(image), url: urlOf(image) });
    for (const document of documents) files.push({ kind: 'document', id: document.id, name: document.name, sha1: document.modelhash, url: urlOf(document) });
    return files.sort((a, b) => a.id - b.id || a.kind.localeCompare(b.kind));
  }

  private async imageHash(image: Image): Promise<string> {
    const key = `${image.id}@${image.updated_at}`;
    let hash = this.imageHashes.get(key);
    if (!hash) {
      const response = await this.api.download(urlOf(image)!);
      this.imageHashes.set(key, (hash = sha1(Buffer.from(await response.arrayBuffer()))));
    }
    return hash;
  }
}

const urlOf = (file: Image | Document) => (file.file as { url?: string | null } | null)?.url ?? null;

/** The profile's sync state as another process sees it: its queue, its design folders, the sync status. */
export function readSyncState(profile: string): { items: QueueItem[]; folders: DesignFolder[]; status: ReturnType<QueueStore['status']> } | null {
  const path = join(profile, 'sync.sqlite');
  if (!existsSync(path)) return null;
  const db = openSyncDatabase(path);
  try {
    const queue = new QueueStore(db);
    return { items: queue.list(), folders: new DesignFolders(db).all(), status: queue.status() };
  } finally {
    db.close();
  }
}

/** Runs `work` on the profile's queue (what `design-sync queue confirm` and the window do through the engine). */
export function withQueue<T>(profile: string, work: (queue: QueueStore) => T): T {
  const db = openSyncDatabase(join(profile, 'sync.sqlite'));
  try {
    return work(new QueueStore(db));
  } finally {
    db.close();
  }
}

export interface TrashedFile { sha1: string; from: string | null; at: string }

/** Everything in the trash: the system trash of the run's home (with the original path) and the sync folder's fallback. */
export function readTrash(paths: FuzzPaths): TrashedFile[] {
  const found: TrashedFile[] = [];
  const xdg = join(paths.home, '.local/share/Trash');
  for (const info of existsSync(join(xdg, 'info')) ? readdirSync(join(xdg, 'info')) : []) {
    const file = join(xdg, 'files', info.replace(/\.trashinfo$/, ''));
    if (!existsSync(file)) continue;
    const from = /^Path=(.*)$/m.exec(readFileSync(join(xdg, 'info', info), 'utf8'))?.[1];
    found.push({ sha1: sha1(readFileSync(file)), from: from ? decodeURI(from).slice(paths.root.length + 1) : null, at: file });
  }
  const fallback = join(paths.root, '.design-sync-trash');
  for (const relative of existsSync(fallback) ? readdirSync(fallback, { recursive: true }).map(String) : []) {
    const file = join(fallback, relative);
    try {
      found.push({ sha1: sha1(readFileSync(file)), from: null, at: file });
    } catch {
      // a day's folder
    }
  }
  return found;
}
