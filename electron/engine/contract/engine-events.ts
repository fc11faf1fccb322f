import type { EngineServices } from '../composition/engine-services';
import type { EventMessage } from './contract-endpoint';
import { problemOf } from './problem-of';
import { accountView } from './views/account-view';
import { iso } from './views/iso';
import { pullView } from './views/pull-view';
import { activityView, liveQueueEntry } from './views/queue-entry';
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
export function connectivityEvent(connection: EngineServices['connection'], state: { online: boolean; since: number } = connection.connectivity.state): EventMessage {
  return { type: 'event', name: 'connectivity', payload: { online: state.online, reason: state.online ? null : connectivityWords(connection.serviceUrl()), since: iso(state.since) ?? new Date().toISOString() } };
}

/**
 * The engine's own events, as the contract's: each source followed, each payload a JSON-safe view. Returns the
 * function that stops following them all.
 */
export function subscribeToEngine(services: EngineServices, send: (event: EventMessage) => void): () => void {
  const { account: accountService, connection, syncStatus, catalogue, searchIndex, queue, keepOffline, lifecycle } = services;
  const { session, signIn } = accountService;
  const offs: (() => void)[] = [];
  const follow = <T extends unknown[]>(emitter: { on(name: string, listener: (...args: T) => void): unknown; off(name: string, listener: (...args: T) => void): unknown }, name: string, listener: (...args: T) => void) => {
    emitter.on(name, listener);
    offs.push(() => emitter.off(name, listener));
  };
  const account = () => send({ type: 'event', name: 'account.changed', payload: accountView(services) });
  // Many changes come in bursts (a scan queues thousands of items): the overall state is told once per burst.
  let syncTimer: NodeJS.Timeout | undefined;
  const sync = () => {
    if (syncTimer) return;
    syncTimer = setTimeout(() => {
      syncTimer = undefined;
      send({ type: 'event', name: 'sync.changed', payload: syncView(services) });
    }, SYNC_COALESCE_MS);
  };
  offs.push(() => clearTimeout(syncTimer));

  offs.push(session.subscribe(() => account()));
  // The sync status has one owner, which tells every change of what it is made of (session, connectivity, queue…).
  follow(syncStatus, 'change', sync);
  // A window is open: the service's going away is noticed within seconds (a light probe while online), and its return.
  offs.push(connection.connectivity.watch());
  follow(signIn, 'change', account);
  // Another service chosen (or its web address): the account (its address, so Sign in) and the sync state are new.
  follow(lifecycle, 'service', () => {
    account();
    sync();
  });
  follow(signIn, 'ended', (ended: { outcome: 'signed-in' | 'denied' | 'timed-out' | 'cancelled' | 'failed'; message: string }) =>
    send({ type: 'event', name: 'account.signInEnded', payload: ended }));

  let lastProgress = 0;
  follow(catalogue, 'progress', (progress: { phase: 'designs' | 'own-designs' | 'images' | 'done'; done: number; total: number | null }) => {
    const now = Date.now();
    if (progress.phase !== 'done' && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    send({ type: 'event', name: 'pull.progress', payload: { phase: progress.phase, done: progress.done, total: progress.total } });
  });
  follow(catalogue, 'finished', ({ summary, error }: { summary: Parameters<typeof pullView>[0] | null; error: unknown }) =>
    send({ type: 'event', name: 'pull.finished', payload: { summary: summary ? pullView(summary) : null, problem: summary ? null : problemOf(error) } }));

  let lastIndexing = 0;
  follow(searchIndex, 'progress', ({ waiting }: { waiting: number }) => {
    const now = Date.now();
    if (waiting > 0 && now - lastIndexing < SEARCH_INDEXING_INTERVAL_MS) return;
    lastIndexing = now;
    send({ type: 'event', name: 'search.indexing', payload: { waiting } });
  });

  offs.push(queue.onChange((event) => {
    if (event.type === 'item' && event.item) send({ type: 'event', name: 'queue.item', payload: liveQueueEntry(queue, event.item) });
  }));
  follow(keepOffline, 'progress', (status: KeptDesignStatus) => send({ type: 'event', name: 'offline.progress', payload: keptDesignView(status) }));
  offs.push(queue.onActivity((entry) => send({ type: 'event', name: 'activity', payload: activityView(entry) })));
  follow(connection.connectivity, 'change', (state: { online: boolean; since: number }) => send(connectivityEvent(connection, state)));
  return () => {
    for (const off of offs.splice(0)) off();
  };
}
