import { EventEmitter } from 'node:events';
import type { OverallSyncState, QueueState, SyncReasonCode, SyncRunState, UploadProgressView } from '../../../shared';
import type { EngineWords } from '../../../shared/i18n/engine-words';
import { englishOf } from '../../../shared/i18n/worded-error';
import type { Session } from '../authorization/session';
import type { QueueBlock } from '../queue/problem-outcome';
import type { QueueStore } from '../queue/queue-store';
import type { QueueRunner } from '../queue/queue-runner';
import { runnerLockHolder } from '../queue/runner-lock';
import { uploadProgressOf } from '../queue/upload-progress';
import type { FolderSideState } from '../sync/folder-side-state';
import type { SyncEngine } from '../sync/sync-engine';
import { SyncFolder } from '../sync-state/sync-root';

/** Why the background work is not running, when it is not (the engine's own). */
export type BackgroundProblemKind = 'queue-locked' | 'sync-failed';

/** Everything the sync status is made of, as typed facts read from their owners at the moment it is asked. */
export interface SyncStatusFacts {
  serviceUrl: string | null;
  /** The sync folder chosen, or null. */
  folder: string | null;
  /** The folder side's state (null while no sync engine was made). */
  folderSide: FolderSideState | null;
  /** The hold sync_status keeps while the sync folder is not there as it was (this process or an earlier one), or null. */
  storedStop: string | null;
  /** Its facts, when known (the sync folder checked now: another process stopped for it), or null. */
  storedStopWords?: EngineWords | null;
  /** The background work runs here, or another process sends this profile's queue. */
  backgroundRunning: boolean;
  backgroundProblem: { kind: BackgroundProblemKind; message: string; words?: EngineWords | null } | null;
  session: 'signed-out' | 'signed-in' | 'needs-sign-in';
  contentPolicyAccepted: boolean;
  /** Why the queue runner holds the whole queue back, or null. */
  queueBlock: QueueBlock | null;
  queuePaused: boolean;
  /** When a timed pause ends by itself (epoch ms), or null. */
  queuePausedUntil?: number | null;
  counts: Record<QueueState, number>;
  /** The engine's one connectivity source. */
  online: boolean;
  /** Offline because of the proxy: its words, said instead of "the service cannot be reached". */
  proxyProblem?: string | null;
  /** Their facts, which the front ends word in the person's language. */
  proxyProblemWords?: EngineWords | null;
  /** The current burst of uploads (upload-progress.ts, its one owner), or null when none is under way. */
  uploads?: UploadProgressView | null;
}

/** The sync status: a state, why (a code), and the facts its words need. Words are made at the edge (syncReasonWords). */
export interface SyncStatus {
  state: OverallSyncState;
  reasonCode: SyncReasonCode;
  runState: SyncRunState;
  counts: Record<QueueState, number>;
  folder: string | null;
  serviceUrl: string | null;
  /** Epoch ms until which the state lasts by itself ('rate-limited'), or null. */
  until: number | null;
  /** A detail in English (the stop's reason, the lock's holder, the watcher's problem), or null. */
  detail: string | null;
  /** Its facts, which the front ends word in the person's language (syncReasonWords); null: say `detail` as it is. */
  detailWords: EngineWords | null;
  /** The files and bytes of the current burst of uploads, their rate and time left; null when none is under way. */
  uploads: UploadProgressView | null;
}

/**
 * The one overall state, most urgent first, so that an error is never hidden behind "syncing" or "up to date", and
 * "offline" is said only when the engine's connectivity source says the service does not answer.
 */
export function decideSyncStatus(facts: SyncStatusFacts): SyncStatus {
  const { counts } = facts;
  const stoppedReason = facts.folderSide?.stoppedReason ?? facts.storedStop;
  const stoppedWords = facts.folderSide?.stoppedReason != null ? facts.folderSide.stoppedWords : facts.storedStopWords ?? null;
  const pending = counts.waiting + counts.running;
  type Extra = { until?: number; detail?: string | null; detailWords?: EngineWords | null };
  const status = (state: OverallSyncState, reasonCode: SyncReasonCode, extra: Extra = {}): SyncStatus => ({
    state, reasonCode, runState: runStateOf(facts, stoppedReason), counts, folder: facts.folder, serviceUrl: facts.serviceUrl,
    until: extra.until ?? null, detail: extra.detail ?? null, detailWords: extra.detail ? extra.detailWords ?? null : null, uploads: facts.uploads ?? null,
  });

  if (!facts.serviceUrl) return status('not-set-up', 'no-service');
  if (stoppedReason !== null) return status('error', 'folder-unavailable', { detail: stoppedReason, detailWords: stoppedWords });
  if (!facts.folder) return status('not-set-up', 'no-folder');
  const problem = facts.backgroundProblem;
  if (problem) return status('error', problem.kind, problem.kind === 'queue-locked' ? { detail: problem.message, detailWords: problem.words ?? null } : {});
  if (facts.session === 'signed-out') return status('signed-out', 'signed-out');
  if (facts.session === 'needs-sign-in' || facts.queueBlock?.kind === 'sign-in') return status('signed-out', 'sign-in-refused');
  if (!facts.contentPolicyAccepted && (facts.queueBlock?.kind === 'content-policy' || pending > 0)) return status('attention', 'content-policy');
  if (facts.queuePaused) return status('paused', 'uploads-paused', facts.queuePausedUntil ? { until: facts.queuePausedUntil } : {});
  if (!facts.backgroundRunning) return status('paused', 'not-running');
  if (!facts.online) return status('offline', 'service-unreachable', { detail: facts.proxyProblem ?? null, detailWords: facts.proxyProblemWords ?? null });
  if (counts.failed > 0) return status('error', 'changes-failed');
  if (counts.attention > 0) return status('attention', 'items-need-you');
  if (facts.folderSide?.remoteProblem === 'service-failed') return status('error', 'service-failed');
  if (facts.queueBlock?.kind === 'rate-limited') return status('syncing', 'rate-limited', { until: facts.queueBlock.untilMs });
  if (pending > 0) return status('syncing', 'sending');
  if (facts.folderSide?.phase === 'scanning') return status('syncing', 'looking');
  const watcherWarning = facts.folderSide?.watcherWarning ?? null;
  if (watcherWarning) return status('up-to-date', 'watcher-degraded', { detail: watcherWarning, detailWords: facts.folderSide?.watcherWords ?? null });
  return status('up-to-date', 'in-step');
}

/** The engine's run state, for detail: what it does now. */
function runStateOf(facts: SyncStatusFacts, stoppedReason: string | null): SyncRunState {
  if (stoppedReason !== null) return 'stopped';
  if (facts.queuePaused) return 'paused';
  if (facts.queueBlock) return 'waiting';
  // Items marked running while nothing runs were left by a process that ended mid-way: not sent now.
  if (facts.backgroundRunning && facts.counts.running > 0) return 'syncing';
  if (facts.folderSide?.phase === 'scanning') return 'scanning';
  return 'idle';
}

/** An emitter of changes the status follows: the session, connectivity, the queue, the sync engine and runner, the engine. */
export interface StatusSource {
  subscribe(listener: () => void): () => void;
}

/**
 * The one owner of the sync status: it reads the facts from their owners (never from sentences, never from what a
 * process stored while it ran) and tells 'change' whenever one of its sources may have changed it. Nothing of it is
 * stored, so a process killed mid-way leaves no status behind that would lie.
 */
export class SyncStatusService extends EventEmitter<{ change: [] }> {
  private readonly offs: (() => void)[] = [];

  constructor(private readonly facts: () => SyncStatusFacts) {
    super();
  }

  current(): SyncStatus {
    return decideSyncStatus(this.facts());
  }

  /**
   * Follows one more source of change (the engine adds the sync engine and the runner when it makes them). Returns
   * the function that stops following it (parts dropped when the service address changes); close() stops them all.
   */
  follow(source: StatusSource): () => void {
    const off = source.subscribe(() => this.emit('change'));
    this.offs.push(off);
    let followed = true;
    return () => {
      if (!followed) return;
      followed = false;
      off();
      const at = this.offs.indexOf(off);
      if (at >= 0) this.offs.splice(at, 1);
    };
  }

  /** How many sources are followed now (for tests: parts dropped are no longer followed). */
  get followed(): number {
    return this.offs.length;
  }

  /** Something the status is made of changed. */
  changed(): void {
    this.emit('change');
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
  }
}

/** A StatusSource from an emitter and the names of its events. */
export function eventsOf(emitter: { on(name: string, listener: () => void): unknown; off(name: string, listener: () => void): unknown }, ...names: string[]): StatusSource {
  return {
    subscribe(listener) {
      for (const name of names) emitter.on(name, listener);
      return () => {
        for (const name of names) emitter.off(name, listener);
      };
    },
  };
}

/** What the engine knows of itself now, for engineStatusFacts. */
export interface EngineStatusParts {
  queue: QueueStore;
  session: Pick<Session, 'state'>;
  serviceUrl: string | null;
  sync: { sync: Pick<SyncEngine, 'folderSide'>; runner: Pick<QueueRunner, 'blockedBy'> } | null;
  backgroundRunning: boolean;
  backgroundProblem: { kind: BackgroundProblemKind; message: string; words?: EngineWords | null } | null;
  contentPolicyAccepted: boolean;
  online: boolean;
  /** Offline because of the proxy: its words. */
  proxyProblem?: string | null;
  /** Their facts. */
  proxyProblemWords?: EngineWords | null;
}

/** The facts of the sync status, read from each owner now (decideSyncStatus decides). */
export function engineStatusFacts(parts: EngineStatusParts): SyncStatusFacts {
  const status = parts.queue.status();
  const stored = status.state === 'stopped' ? storedStopOf(parts.queue, status.reason ?? null) : null;
  return {
    serviceUrl: parts.serviceUrl,
    folder: status.root,
    folderSide: parts.sync?.sync.folderSide ?? null,
    storedStop: stored?.reason ?? null,
    storedStopWords: stored?.words ?? null,
    backgroundRunning: parts.backgroundRunning || queueSentElsewhere(parts.queue),
    backgroundProblem: parts.backgroundProblem,
    session: parts.session.state.status,
    contentPolicyAccepted: parts.contentPolicyAccepted,
    queueBlock: parts.sync?.runner.blockedBy ?? null,
    queuePaused: status.queuePaused,
    queuePausedUntil: status.queuePausedUntil ?? null,
    counts: status.counts,
    online: parts.online,
    proxyProblem: parts.proxyProblem ?? null,
    proxyProblemWords: parts.proxyProblemWords ?? null,
    uploads: uploadProgressOf(parts.queue).facts(),
  };
}

/**
 * The hold another process (or an earlier one) stored, with its facts: the sync folder checked now says why it is not
 * there as it was, as the process that stopped said it; a stop for another reason (many files gone at once) is said as
 * it was stored, in English.
 */
function storedStopOf(queue: QueueStore, stored: string | null): { reason: string; words: EngineWords | null } {
  const check = new SyncFolder(queue.db).verify();
  if (!check.ok) return { reason: check.reason, words: check.words };
  if (stored !== null) return { reason: stored, words: null };
  const words: EngineWords = { id: 'sync.detail.notAsItWas' };
  return { reason: englishOf(words), words };
}

/** Another process (the app, `design-sync sync --watch`) sends this profile's queue: what `design-sync status` sees. */
function queueSentElsewhere(queue: QueueStore): boolean {
  const file = queue.db.name;
  if (!file || file === ':memory:' || queue.db.memory) return false;
  return runnerLockHolder(`${file}.runner.lock`) !== null;
}
