import type { QueueItemView, QueueState, SyncStatusView } from '../../../shared';
import type { QueueStore } from './queue-store';
import { pauseEndWords } from '../../../shared/sync/sync-state-words';
import type { ActivityEntry, QueueItem } from './queue-item';

/** What `design-sync status` shows (and --json prints): sync as a whole, uploads in progress, what needs a person. */
export interface QueueReport {
  status: SyncStatusView;
  uploading: (QueueItemView & { percent: number | null })[];
  attention: (QueueItemView & { todo: string })[];
  failed: (QueueItemView & { todo: string })[];
  activity: ActivityEntry[];
}

const view = (item: QueueItem): QueueItemView => {
  const { payload: _payload, payloadProblem: _problem, startedAt: _startedAt, fileSize: _size, fileMtimeMs: _mtime, fileSha1: _sha1, sent: _sent, ...rest } = item;
  return rest;
};

export function percentOf(item: Pick<QueueItemView, 'bytesSent' | 'bytesTotal'>): number | null {
  return item.bytesTotal ? Math.min(100, Math.floor((item.bytesSent / item.bytesTotal) * 100)) : null;
}

/** The one thing to do about an item that waits for a person or failed, as a command. */
export function whatToDo(item: QueueItemView): string {
  switch (item.attention) {
    case 'confirm-delete':
      return `design-sync queue confirm ${item.id}   (or: design-sync queue cancel ${item.id} to keep it on the service)`;
    case 'confirm-design':
      return `design-sync queue confirm ${item.id} --name "<name>" --excerpt "<one line>" --license <code> [--publish]`;
    case 'sign-in':
      return 'design-sync login';
    case 'invalid-file':
    case 'refused':
      return `fix or remove the file, or: design-sync queue cancel ${item.id}`;
    case 'missing-design':
      return `link the folder to another design, or: design-sync queue cancel ${item.id}`;
    case 'conflict':
      return `keep one of the two versions, then: design-sync queue retry ${item.id}`;
    case 'ready-to-publish':
      return `design-sync queue confirm ${item.id} to send it (all of them: design-sync queue send-ready), or: design-sync queue cancel ${item.id}`;
    default:
      return `design-sync queue retry ${item.id}   (or: design-sync queue cancel ${item.id})`;
  }
}

export function queueReport(store: QueueStore, activityLines = 5): QueueReport {
  return {
    status: store.status(),
    uploading: store.list({ states: ['running'] }).map((item) => ({ ...view(item), percent: percentOf(item) })),
    attention: store.list({ states: ['attention'] }).map((item) => ({ ...view(item), todo: whatToDo(item) })),
    failed: store.list({ states: ['failed'] }).map((item) => ({ ...view(item), todo: whatToDo(item) })),
    activity: store.recentActivity(activityLines),
  };
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

const STATE_WORDS: Record<QueueState, string> = {
  waiting: 'waiting', running: 'uploading', done: 'done', failed: 'failed', attention: 'need attention', cancelled: 'cancelled',
};

export function subjectOf(item: QueueItemView): string {
  return item.path ?? (item.folder ? `folder "${item.folder}"` : `item ${item.id}`);
}

export function progressText(item: QueueItemView): string {
  if (item.bytesTotal === null) return 'starting';
  const percent = percentOf(item);
  return `${bytes(item.bytesSent)} of ${bytes(item.bytesTotal)}${percent === null ? '' : ` (${percent}%)`}`;
}

/** `headline`: the overall state in the shared words (`Sync: Up to date`); by default the stored run state. */
export function formatReport(report: QueueReport, headline?: string): string {
  const { status } = report;
  const lines = [
    headline ?? `Sync: ${status.state}${status.reason ? ` — ${status.reason}` : ''}`,
    `Folder: ${status.root ?? 'not set up'}`,
  ];
  if (status.queuePaused) {
    lines.push(status.queuePausedUntil
      ? `Uploads: paused until ${pauseEndWords(new Date(status.queuePausedUntil).toISOString())}, then they resume by themselves (design-sync queue resume: now)`
      : 'Uploads: paused (design-sync queue resume)');
  }
  lines.push(`Queue: ${(Object.keys(STATE_WORDS) as QueueState[]).map((state) => `${status.counts[state]} ${STATE_WORDS[state]}`).join(', ')}`);
  if (report.uploading.length > 0) {
    lines.push('', 'Uploading:');
    for (const item of report.uploading) lines.push(`  #${item.id} ${subjectOf(item)}  ${progressText(item)}`);
  }
  if (report.attention.length > 0) {
    lines.push('', 'Needs your attention:');
    for (const item of report.attention) lines.push(`  #${item.id} ${subjectOf(item)} [${item.attention}]: ${item.reason ?? ''}`, `      → ${item.todo}`);
  }
  if (report.failed.length > 0) {
    lines.push('', 'Failed:');
    for (const item of report.failed) lines.push(`  #${item.id} ${subjectOf(item)}: ${item.reason ?? ''}`, `      → ${item.todo}`);
  }
  if (report.activity.length > 0) {
    lines.push('', 'Recent activity:');
    for (const entry of report.activity) lines.push(`  ${new Date(entry.at).toLocaleTimeString()} ${entry.level === 'info' ? '' : `${entry.level}: `}${entry.message}`);
  }
  return lines.join('\n');
}

/** One line per item, for `design-sync queue list`. */
export function formatItems(items: QueueItemView[]): string {
  if (items.length === 0) return 'The queue is empty.';
  const width = Math.max(...items.map((item) => String(item.id).length));
  return items.map((item) => {
    const state = item.paused && item.state === 'waiting' ? 'paused' : STATE_WORDS[item.state].replace('need attention', 'attention');
    const detail = item.state === 'running' ? progressText(item)
      : item.state === 'attention' ? `[${item.attention}] ${item.reason ?? ''}`
      : item.reason ?? '';
    return `${String(item.id).padStart(width)}  ${state.padEnd(9)}  ${item.kind.padEnd(13)}  ${subjectOf(item)}${detail ? `  — ${detail}` : ''}`;
  }).join('\n');
}
