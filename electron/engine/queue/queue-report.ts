import type { QueueItemView, QueueState, SyncStatusView } from '../../../shared';
import type { QueueStore } from './queue-store';
import { pauseEndWords } from '../../../shared/sync/sync-state-words';
import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import { formatBytes } from '../../../shared/i18n/format';
import { wordedOr } from '../../../shared/i18n/engine-words';
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

/** The one thing to do about an item that waits for a person or failed, as a command (in `intl`'s words; --json's in English). */
export function whatToDo(item: QueueItemView, intl: Words = ENGLISH_INTL): string {
  const id = String(item.id);
  switch (item.attention) {
    case 'confirm-delete':
      return intl.formatMessage({ id: 'cli.queue.todo.confirmDelete' }, { id });
    case 'confirm-design':
      return intl.formatMessage({ id: 'cli.queue.todo.confirmDesign' }, { id });
    case 'sign-in':
      return 'design-sync login';
    case 'invalid-file':
    case 'refused':
      return intl.formatMessage({ id: 'cli.queue.todo.fixFile' }, { id });
    case 'missing-design':
      return intl.formatMessage({ id: 'cli.queue.todo.missingDesign' }, { id });
    case 'conflict':
      return intl.formatMessage({ id: 'cli.queue.todo.conflict' }, { id });
    case 'ready-to-publish':
      return intl.formatMessage({ id: 'cli.queue.todo.readyToPublish' }, { id });
    default:
      return intl.formatMessage({ id: 'cli.queue.todo.retry' }, { id });
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

/** A size in English ("3.4 KB"), for words not in a language of the person's yet. */
export function bytes(n: number): string {
  return formatBytes(ENGLISH_INTL, n);
}

const QUEUE_STATE_ORDER: readonly QueueState[] = ['waiting', 'running', 'done', 'failed', 'attention', 'cancelled'];

/** What an item is about, in `intl`'s words: its file, its folder, else its number. */
export function subjectOf(item: QueueItemView, intl: Words = ENGLISH_INTL): string {
  return item.path ?? (item.folder
    ? intl.formatMessage({ id: 'cli.queue.report.folderSubject' }, { folder: item.folder })
    : intl.formatMessage({ id: 'cli.queue.report.itemSubject' }, { id: String(item.id) }));
}

export function progressText(item: QueueItemView, intl: Words = ENGLISH_INTL): string {
  if (item.bytesTotal === null) return intl.formatMessage({ id: 'cli.queue.report.starting' });
  const percent = percentOf(item);
  const values = { sent: formatBytes(intl, item.bytesSent), total: formatBytes(intl, item.bytesTotal) };
  return percent === null
    ? intl.formatMessage({ id: 'cli.queue.report.progress' }, values)
    : intl.formatMessage({ id: 'cli.queue.report.progressPercent' }, { ...values, percent });
}

/**
 * `headline`: the overall state in the shared words (`Sync: Up to date`); by default the stored run state. The words
 * in `intl`'s language, an item's reason and an activity line worded from their facts (as the engine wrote them when
 * they have none).
 */
export function formatReport(report: QueueReport, headline?: string, intl: Words = ENGLISH_INTL): string {
  const { status } = report;
  const lines = [
    headline ?? `Sync: ${status.state}${status.reason ? ` — ${status.reason}` : ''}`,
    status.root === null ? intl.formatMessage({ id: 'cli.status.folderNotSetUp' }) : intl.formatMessage({ id: 'cli.status.folder' }, { folder: status.root }),
  ];
  if (status.queuePaused) {
    lines.push(status.queuePausedUntil
      ? intl.formatMessage({ id: 'cli.status.uploadsPausedUntil' }, { until: pauseEndWords(new Date(status.queuePausedUntil).toISOString(), new Date(), intl) })
      : intl.formatMessage({ id: 'cli.status.uploadsPaused' }));
  }
  lines.push(intl.formatMessage({ id: 'cli.status.queueCounts' }, Object.fromEntries(QUEUE_STATE_ORDER.map((state) => [state, status.counts[state]]))));
  if (report.uploading.length > 0) {
    lines.push('', intl.formatMessage({ id: 'cli.status.uploadingTitle' }));
    for (const item of report.uploading) lines.push(`  #${item.id} ${subjectOf(item, intl)}  ${progressText(item, intl)}`);
  }
  if (report.attention.length > 0) {
    lines.push('', intl.formatMessage({ id: 'cli.status.attentionTitle' }));
    for (const item of report.attention) lines.push(`  #${item.id} ${subjectOf(item, intl)} [${item.attention}]: ${wordedOr(intl, item.reasonWords, item.reason) ?? ''}`, `      → ${whatToDo(item, intl)}`);
  }
  if (report.failed.length > 0) {
    lines.push('', intl.formatMessage({ id: 'cli.status.failedTitle' }));
    for (const item of report.failed) lines.push(`  #${item.id} ${subjectOf(item, intl)}: ${wordedOr(intl, item.reasonWords, item.reason) ?? ''}`, `      → ${whatToDo(item, intl)}`);
  }
  if (report.activity.length > 0) {
    lines.push('', intl.formatMessage({ id: 'cli.status.activityTitle' }));
    for (const entry of report.activity) {
      const time = intl.formatTime(entry.at, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
      lines.push(`  ${time} ${intl.formatMessage({ id: 'activity.leveled' }, { level: entry.level, line: wordedOr(intl, entry.words, entry.message) })}`);
    }
  }
  return lines.join('\n');
}

/** One line per item, for `design-sync queue list`, in `intl`'s words (an item's reason too, from its facts). */
export function formatItems(items: QueueItemView[], intl: Words = ENGLISH_INTL): string {
  if (items.length === 0) return intl.formatMessage({ id: 'cli.queue.list.empty' });
  const width = Math.max(...items.map((item) => String(item.id).length));
  return items.map((item) => {
    const state = intl.formatMessage({ id: 'cli.queue.list.state' }, { state: item.paused && item.state === 'waiting' ? 'paused' : item.state });
    const reason = wordedOr(intl, item.reasonWords, item.reason) ?? '';
    const detail = item.state === 'running' ? progressText(item, intl)
      : item.state === 'attention' ? `[${item.attention}] ${reason}`
      : reason;
    return `${String(item.id).padStart(width)}  ${state.padEnd(9)}  ${item.kind.padEnd(13)}  ${subjectOf(item, intl)}${detail ? `  — ${detail}` : ''}`;
  }).join('\n');
}
