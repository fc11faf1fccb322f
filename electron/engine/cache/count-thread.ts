import type { Worker } from 'node:worker_threads';
import type { LicenseCode } from '../../../shared';
import { engineLog } from '../log/engine-log';
import { RunningThreads, startDatabaseThread } from '../sqlite/database-thread';
import type { CountReply, CountRequest } from './count-thread-protocol';

const running = new RunningThreads();

/** Count threads started and not yet exited, in this process. */
export function runningCountThreads(): number {
  return running.count;
}

interface CountJob {
  request: CountRequest;
  signal: AbortSignal;
  resolve(total: number): void;
  reject(error: Error): void;
}

/**
 * The library's exact counts on a thread of their own (count-thread-worker.ts), started at the first count asked (or
 * when the window opens a large cache, to read its narrow index through).
 * One count runs at a time; one asked meanwhile waits here, and one whose signal is aborted before its turn is never
 * sent. A count already sent cannot be stopped (SQLite's statement runs to its end), but whoever asked it is answered
 * at once and its total is dropped. When the thread fails, every count waiting fails with it and `failed` turns
 * true: the library counts on its own thread again.
 */
export class ExactCountThread {
  private readonly worker: Worker;
  private ready = false;
  private running: CountJob | null = null;
  private readonly waiting: CountJob[] = [];
  private failure: Error | null = null;
  private closing = false;

  constructor(databasePath: string) {
    const thread = startDatabaseThread(new URL('./count-thread-worker.ts', import.meta.url), 'count-thread-worker.mjs', databasePath, running);
    this.worker = thread.worker;
    // Never what keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (reply: CountReply) => this.onReply(reply));
    this.worker.on('error', (error) => this.fail(error));
    void thread.exited.then(() => this.fail(new Error('The count thread stopped.')));
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Every cached design matching the words and licenses, counted on the thread; `signal` stops waiting for it. */
  count(query: string, licenses: readonly LicenseCode[], signal: AbortSignal): Promise<number> {
    return this.ask({ kind: 'count', query, licenses }, signal);
  }

  /** Reads the narrow index through (index-warm-up.ts), in its turn like a count: the designs it holds. */
  readIndexThrough(): Promise<number> {
    return this.ask({ kind: 'read-index-through' }, new AbortController().signal);
  }

  private ask(request: CountRequest, signal: AbortSignal): Promise<number> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const job: CountJob = { request, signal, resolve, reject };
      signal.addEventListener('abort', () => {
        const at = this.waiting.indexOf(job);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('The count was stopped.'));
      }, { once: true });
      this.waiting.push(job);
      this.sendNext();
    });
  }

  close(): void {
    this.closing = true;
    this.fail(new Error('The library was closed.'));
    void this.worker.terminate();
  }

  private sendNext(): void {
    if (!this.ready || this.running || this.failure) return;
    let job = this.waiting.shift();
    while (job?.signal.aborted) job = this.waiting.shift();
    if (!job) return;
    this.running = job;
    this.worker.postMessage(job.request);
  }

  private onReply(reply: CountReply): void {
    if (reply.kind === 'ready') {
      this.ready = true;
      this.sendNext();
      return;
    }
    const job = this.running;
    this.running = null;
    if (job && !job.signal.aborted) {
      if (reply.kind === 'counted') job.resolve(reply.total);
      else job.reject(new Error(reply.message));
    }
    this.sendNext();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    if (!this.closing) engineLog.warn('library', 'the count thread failed: counts are made on the engine\'s thread', error);
    for (const job of [this.running, ...this.waiting.splice(0)]) job?.reject(error);
    this.running = null;
  }
}
