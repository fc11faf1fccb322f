/**
 * The pull's writer thread (a worker_threads Worker started by pull-writer.ts): its own connection to the cache's
 * WAL database, so that the pages of a listing are written (and the WAL checkpointed) while the walk fetches the next
 * ones. Pages waiting when it gets to them are written in one transaction, each in a savepoint of its own, so a page
 * that fails leaves the pages before it written, as on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { jsonArrayElementTexts } from '../api/json-array-elements';
import { adoptSqliteNativeBinding } from '../sqlite/open-sqlite';
import { openCacheDatabase } from './cache-database';
import { endBulkFillAs, remakeSetAsideIndexQuietly } from './bulk-fill';
import { DesignWriteSession, upsertDesigns } from './design-writes';
import { writeBackloggedSearchRows } from './search-backlog';
import { optimizeSearchIndex } from './search-rows';
import { PULL_WAL_CHECKPOINT_PAGES, type WriterData, type WriterReply, type WriterRequest } from './pull-writer-protocol';

const port = parentPort!;
const data = workerData as WriterData;
adoptSqliteNativeBinding(data.nativeBinding);
const db = openCacheDatabase(data.databasePath);
// The pull's many commits would each checkpoint the WAL (rewriting the same index pages, with an fsync) as it
// passes 1000 pages: checkpoints come rarely instead, with the WAL still bounded.
db.pragma(`wal_autocheckpoint = ${PULL_WAL_CHECKPOINT_PAGES}`);
/**
 * When the thread has nothing else to do and the walk has added this many designs since, the search backlog's rows
 * are written (unless the pull leaves them behind it).
 */
const SEARCH_ROWS_BATCH = 5000;
let session = new DesignWriteSession({ deferSearchRows: true });
let newDesigns = 0;
/** Set when a page failed: the walk stops there, so the pages sent after it are not written. */
let walkFailed = false;
const queue: WriterRequest[] = [];
let draining = false;

const reply = (message: WriterReply) => port.postMessage(message);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function writePages(pages: Extract<WriterRequest, { kind: 'page' }>[]): void {
  const answers: WriterReply[] = [];
  try {
    db.transaction(() => {
      for (const page of pages) {
        if (walkFailed) {
          answers.push({ kind: 'failed', message: 'An earlier page of this walk could not be written.' });
          continue;
        }
        try {
          const items = JSON.parse(page.itemsJson) as unknown[];
          const results = upsertDesigns(db, items, page.form, page.at, page.flags, session, jsonArrayElementTexts(page.itemsJson) ?? undefined);
          newDesigns += results.filter((result) => result.outcome === 'inserted').length;
          answers.push({ kind: 'written', results });
        } catch (error) {
          walkFailed = true;
          answers.push({ kind: 'failed', message: messageOf(error) });
        }
      }
    })();
  } catch (error) {
    // The commit itself failed: none of these pages is written.
    walkFailed = true;
    session.clear();
    for (let i = 0; i < pages.length; i++) reply({ kind: 'failed', message: messageOf(error) });
    return;
  }
  for (const answer of answers) reply(answer);
  for (const page of pages) if (page.remakeIndex && !walkFailed) remakeSetAsideIndexQuietly(db);
}

function handle(request: Exclude<WriterRequest, { kind: 'page' }>): void {
  try {
    if (request.kind === 'close') {
      // The WAL this thread wrote is checkpointed here, not by the engine's thread's next commit (which waited for
      // up to 128 MiB of it to be copied into the database: the first slice of the search index behind the pull).
      checkpointQuietly();
      db.close();
      port.close();
      return;
    }
    if (request.kind === 'end-walk') {
      session = new DesignWriteSession({ deferSearchRows: true });
      walkFailed = false;
      newDesigns = 0;
      if (request.writeSearchRows) writeBackloggedSearchRows(db);
      endBulkFillAs(db, request.bulkFill);
    } else {
      optimizeSearchIndex(db);
    }
    reply({ kind: 'done' });
  } catch (error) {
    reply({ kind: 'failed', message: messageOf(error) });
  }
}

function checkpointQuietly(): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Left to the next commit of another connection, as SQLite does by itself.
  }
}

/** Everything that arrived while the thread was busy: consecutive pages in one transaction. */
function drain(): void {
  draining = false;
  while (queue.length > 0) {
    const pages: Extract<WriterRequest, { kind: 'page' }>[] = [];
    while (queue[0]?.kind === 'page') pages.push(queue.shift() as Extract<WriterRequest, { kind: 'page' }>);
    if (pages.length > 0) writePages(pages);
    else handle(queue.shift() as Exclude<WriterRequest, { kind: 'page' }>);
  }
  // Idle while the walk fetches: the search rows of a large batch of new designs (one large FTS5 batch costs far
  // less than many small ones, and written now it is not left for after the walk).
  if (db.open && !walkFailed && data.searchRows === 'at-walk-end' && newDesigns >= SEARCH_ROWS_BATCH) {
    try {
      newDesigns = 0;
      writeBackloggedSearchRows(db);
    } catch {
      // Left for the end of the walk, which reports its failure.
    }
  }
}

port.on('message', (request: WriterRequest) => {
  queue.push(request);
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
});
reply({ kind: 'ready' });
