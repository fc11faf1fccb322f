import { parentPort, Worker, workerData, type MessagePort } from 'node:worker_threads';
import { adoptSqliteNativeBinding, sqliteNativeBinding } from './open-sqlite';
import { workerEntry } from './worker-entry';

/** What a database thread is given: its database, and the better-sqlite3 build the main thread loaded, to load too. */
export interface DatabaseThreadData {
  databasePath: string;
  nativeBinding: string | undefined;
}

/** How many threads of one kind were started and have not exited yet, in this process. */
export class RunningThreads {
  count = 0;
}

/**
 * Starts the worker thread whose TypeScript source is `source` (in the shell, its bundle `bundledName` beside the
 * engine's: worker-entry.ts) on the database at `databasePath`; counted in `running` until it exits.
 */
export function startDatabaseThread(source: URL, bundledName: string, databasePath: string, running: RunningThreads): { worker: Worker; exited: Promise<void> } {
  const { entry, eval: isEval } = workerEntry(source, bundledName);
  const worker = new Worker(entry, { eval: isEval, workerData: { databasePath, nativeBinding: sqliteNativeBinding() } satisfies DatabaseThreadData });
  running.count++;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => {
    running.count--;
    resolve();
  }));
  return { worker, exited };
}

/**
 * In a thread started by startDatabaseThread: the port to the thread that started it, and its database's path, with
 * the better-sqlite3 build that thread loaded adopted for this one's connections.
 */
export function databaseThreadStart(): { port: MessagePort; databasePath: string } {
  const data = workerData as DatabaseThreadData;
  adoptSqliteNativeBinding(data.nativeBinding);
  return { port: parentPort!, databasePath: data.databasePath };
}

/**
 * In a database thread: answers each request with what `answer` returns, or `failed` with the error's message; a
 * `close` request closes `db` and ends the thread.
 */
export function answerEachRequest<Request extends { kind: string }, Reply>(
  port: MessagePort, db: { close(): unknown }, answer: (request: Exclude<Request, { kind: 'close' }>) => Reply,
): void {
  port.on('message', (request: Request) => {
    if (request.kind === 'close') {
      db.close();
      port.close();
      return;
    }
    try {
      port.postMessage(answer(request as Exclude<Request, { kind: 'close' }>));
    } catch (error) {
      port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
}
