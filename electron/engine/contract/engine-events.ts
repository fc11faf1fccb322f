import type { Engine } from '../runtime/engine';
import type { EventMessage } from './contract-endpoint';
import { problemOf } from './problem-of';
import { accountView } from './views/account-view';
import { iso } from './views/iso';
import { pullView } from './views/pull-view';
import { activityView, liveQueueEntry, queueEntry } from './views/queue-entry';
import { syncView } from './views/sync-view';
import { connectivityWords } from '../../../shared/sync/sync-state-words';
import type { KeptDesignStatus } from '../keep-offline/keep-offline';
import { keptDesignView } from './views/kept-design-view';

/** Pull progress is told at most this often (a 100,000-design pull reports thousands of steps). */
const PROGRESS_INTERVAL_MS = 100;
/**
 * The search index's progress is told at most this often: each time, a window showing a search that could not see
 * every design asks for it again (a million designs take about a minute to index, a slice every 50–70 ms).
 */
const SEARCH_INDEXING_INTERVAL_MS = 1_000;
const SYNC_COALESCE_MS = 50;

/** Whether the service answers, as the contract's event (`state`: connectivity's, now by default). */
export function connectivityEvent(engine: Engine, state: { online: boolean; since: number } = engine.connectivity.state): EventMessage {
  return { type: 'event', name: 'connectivity', payload: { online: state.online, reason: state.online ? null : connectivityWords(engine.serviceUrl()), since: iso(state.since) ?? new Date().toISOString() } };
}

/**
 * The engine's own events, as the contract's: each source followed, each payload a JSON-safe view. Returns the
 * function that stops following them all.
 */
export function subscribeToEngine(engine: Engine, send: (event: EventMessage) => void): () => void {
  const offs: (() => void)[] = [];
  const follow = <T extends unknown[]>(emitter: { on(name: string, listener: (...args: T) => void): unknown; off(name: string, listener: (...args: T) => void): unknown }, name: string, listener: (...args: T) => void) => {
    emitter.on(name, listener);
    offs.push(() => emitter.off(name, listener));
  };
  const account = () => send({ type: 'event', name: 'account.changed', payload: accountView(engine) });
  // Many changes come in bursts (a scan queues thousands of items): the overall state is told once per burst.
  let syncTimer: NodeJS.Timeout | undefined;
  const sync = () => {
    if (syncTimer) return;
    syncTimer = setTimeout(() => {
      syncTimer = undefined;
      send({ type: 'event', name: 'sync.changed', payload: syncView(engine) });
    }, SYNC_COALESCE_MS);
  };
  offs.push(() => clearTimeout(syncTimer));

  offs.push(engine.session.subscribe(() => account()));
  // The sync status has one owner, which tells every change of what it is made of (session, connectivity, queue…).
  follow(engine.syncStatus, 'change', sync);
  // A window is open: the service's going away is noticed within seconds (a light probe while online), and its return.
  offs.push(engine.connectivity.watch());
  follow(engine.signIn, 'change', account);
  // Another service chosen (or its web address): the account (its address, so Sign in) and the sync state are new.
  follow(engine, 'service', () => {
    account();
    sync();
  });
  follow(engine.signIn, 'ended', (ended: { outcome: 'signed-in' | 'denied' | 'timed-out' | 'cancelled' | 'failed'; message: string }) =>
    send({ type: 'event', name: 'account.signInEnded', payload: ended }));

  let lastProgress = 0;
  follow(engine.catalogue, 'progress', (progress: { phase: 'designs' | 'own-designs' | 'images' | 'done'; done: number; total: number | null }) => {
    const now = Date.now();
    if (progress.phase !== 'done' && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    send({ type: 'event', name: 'pull.progress', payload: { phase: progress.phase, done: progress.done, total: progress.total } });
  });
  follow(engine.catalogue, 'finished', ({ summary, error }: { summary: Parameters<typeof pullView>[0] | null; error: unknown }) =>
    send({ type: 'event', name: 'pull.finished', payload: { summary: summary ? pullView(summary) : null, problem: summary ? null : problemOf(error) } }));

  let lastIndexing = 0;
  follow(engine.searchIndex, 'progress', ({ waiting }: { waiting: number }) => {
    const now = Date.now();
    if (waiting > 0 && now - lastIndexing < SEARCH_INDEXING_INTERVAL_MS) return;
    lastIndexing = now;
    send({ type: 'event', name: 'search.indexing', payload: { waiting } });
  });

  follow(engine.queue, 'change', (event: { type: 'item' | 'status'; item?: Parameters<typeof queueEntry>[0] }) => {
    if (event.type === 'item' && event.item) send({ type: 'event', name: 'queue.item', payload: liveQueueEntry(engine.queue, event.item) });
  });
  follow(engine.keepOffline, 'progress', (status: KeptDesignStatus) => send({ type: 'event', name: 'offline.progress', payload: keptDesignView(status) }));
  follow(engine.queue, 'activity', (entry: Parameters<typeof activityView>[0]) => send({ type: 'event', name: 'activity', payload: activityView(entry) }));
  follow(engine.connectivity, 'change', (state: { online: boolean; since: number }) => send(connectivityEvent(engine, state)));
  return () => {
    for (const off of offs.splice(0)) off();
  };
}
