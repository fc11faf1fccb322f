/**
 * When updates are looked for and when they install, decided without Electron: a source standing in for the feed, a
 * clock and a scheduler the test moves by hand, and the sync state the engine reports.
 */
import { describe, expect, it, vi } from 'vitest';
import { canCheckForUpdates, canRestartToUpdate, updatesStateWords, type UpdatesView } from '../../shared/updates/updates-view';
import { UpdateController, type CheckOutcome, type UpdateSource } from '../../electron/shell/updates/update-controller';
import { CHECK_INTERVAL_MS, STARTUP_CHECK_DELAY_MS, retryDelayMs, uploadsUnderWay } from '../../electron/shell/updates/update-policy';
import { updateProblem } from '../../electron/shell/updates/update-problem';
import { syncView } from './shell-fixtures';

vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

type Answer = CheckOutcome | Error;

function harness(answers: Answer[], unavailable: string | null = null) {
  let now = Date.parse('2026-11-29T08:00:00.000Z');
  const timers: { at: number; callback: () => void; cancelled: boolean }[] = [];
  const checks: number[] = [];
  const source: UpdateSource = {
    feed: 'https://updates.design-sync.example/', channel: 'latest',
    unavailableReason: () => unavailable,
    async check(found, progress) {
      checks.push(now);
      const answer = answers.shift() ?? { outcome: 'up-to-date' };
      if (answer instanceof Error) throw answer;
      if (answer.outcome === 'downloaded') {
        found(answer.version);
        progress(50);
      }
      return answer;
    },
  };
  const restart = vi.fn();
  const views: UpdatesView[] = [];
  const controller = new UpdateController({
    source, currentVersion: '1.0.0', now: () => new Date(now), restart, log: () => undefined, changed: (view) => views.push(view),
    schedule(callback, ms) {
      const timer = { at: now + ms, callback, cancelled: false };
      timers.push(timer);
      return () => { timer.cancelled = true; };
    },
  });
  /** Moves the clock on and runs what fell due (one timer at most is ever pending). */
  const advance = async (ms: number) => {
    now += ms;
    for (const timer of timers.filter((candidate) => !candidate.cancelled && candidate.at <= now)) {
      timer.cancelled = true;
      timer.callback();
    }
    await vi.waitFor(() => expect(controller.view().state).not.toBe('checking'));
  };
  const pending = () => timers.filter((timer) => !timer.cancelled);
  return { controller, checks, restart, views, advance, pending, sleep: (ms: number) => { now += ms; } };
}

const error = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('when design-sync looks for updates', () => {
  it('checks shortly after start, then once a day', async () => {
    const h = harness([{ outcome: 'up-to-date' }, { outcome: 'up-to-date' }]);
    h.controller.start();
    expect(h.checks).toEqual([]);
    expect(h.controller.view()).toMatchObject({ state: 'idle', nextCheckAt: new Date(Date.parse('2026-11-29T08:00:00.000Z') + STARTUP_CHECK_DELAY_MS).toISOString() });
    await h.advance(STARTUP_CHECK_DELAY_MS);
    expect(h.checks).toHaveLength(1);
    expect(h.controller.view()).toMatchObject({ state: 'up-to-date', lastCheckedAt: '2026-11-29T08:00:30.000Z', nextCheckAt: '2026-11-30T08:00:30.000Z' });
    await h.advance(CHECK_INTERVAL_MS - 1);
    expect(h.checks).toHaveLength(1);
    await h.advance(1);
    expect(h.checks).toHaveLength(2);
    expect(h.pending()).toHaveLength(1);
  });

  it('after a failure tries again in 15 minutes, then waits longer each time, at most a day; a success goes back to daily', async () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([15 * 60_000, 60 * 60_000, 4 * 60 * 60_000, 16 * 60 * 60_000, CHECK_INTERVAL_MS]);
    const down = error('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9');
    const h = harness([down, down, { outcome: 'up-to-date' }]);
    await h.controller.checkNow();
    expect(h.controller.view()).toMatchObject({ state: 'failed', reason: expect.stringContaining('could not be reached (ECONNREFUSED)'), nextCheckAt: '2026-11-29T08:15:00.000Z' });
    await h.advance(15 * 60_000);
    expect(h.controller.view()).toMatchObject({ state: 'failed', nextCheckAt: '2026-11-29T09:15:00.000Z' });
    await h.advance(60 * 60_000);
    expect(h.controller.view()).toMatchObject({ state: 'up-to-date', reason: null, nextCheckAt: '2026-11-30T09:15:00.000Z' });
  });

  it('checks at once when the computer wakes after the check fell due, not before', async () => {
    const h = harness([]);
    h.controller.start();
    h.sleep(STARTUP_CHECK_DELAY_MS - 1);
    h.controller.resumed();
    expect(h.checks).toHaveLength(0);
    h.sleep(10 * 60 * 60_000);
    h.controller.resumed();
    await vi.waitFor(() => expect(h.controller.view().state).toBe('up-to-date'));
    expect(h.checks).toHaveLength(1);
    expect(h.pending()).toHaveLength(1);
  });

  it('runs one check at a time: "Check for updates" during a check joins it', async () => {
    const h = harness([]);
    await Promise.all([h.controller.checkNow(), h.controller.checkNow()]);
    expect(h.checks).toHaveLength(1);
  });

  it('never checks in a copy that cannot update itself, and says why', async () => {
    const h = harness([], 'This is a development build of design-sync: installed releases update themselves.');
    h.controller.start();
    await h.controller.checkNow();
    expect(h.checks).toEqual([]);
    expect(h.pending()).toEqual([]);
    expect(h.controller.view()).toMatchObject({ state: 'unavailable', reason: expect.stringContaining('development build') });
    expect(canCheckForUpdates(h.controller.view())).toBe(false);
  });

  it('stops asking when the app has no feed built in (app-update.yml missing)', async () => {
    const h = harness([error('ENOENT', "ENOENT: no such file or directory, open '/opt/design-sync/resources/app-update.yml'")]);
    await h.controller.checkNow();
    expect(h.controller.view()).toMatchObject({ state: 'unavailable', reason: expect.stringContaining('built without an update feed') });
    expect(h.pending()).toEqual([]);
  });
});

describe('when a downloaded update installs', () => {
  it('is ready once downloaded and verified, and stops checking (it installs when design-sync quits)', async () => {
    const h = harness([{ outcome: 'downloaded', version: '1.1.0' }]);
    await h.controller.checkNow();
    expect(h.views.map((view) => view.state)).toEqual(['checking', 'downloading', 'downloading', 'ready']);
    expect(h.views[2]).toMatchObject({ state: 'downloading', version: '1.1.0', percent: 50 });
    expect(h.controller.view()).toMatchObject({ state: 'ready', version: '1.1.0', percent: null });
    expect(h.pending()).toEqual([]);
    expect(canRestartToUpdate(h.controller.view())).toBe(true);
    expect(canCheckForUpdates(h.controller.view())).toBe(false);
    expect(updatesStateWords(h.controller.view())).toBe('Version 1.1.0 is ready: it installs when design-sync quits');
  });

  it('"Restart now" restarts at once when no file is being sent', async () => {
    const h = harness([{ outcome: 'downloaded', version: '1.1.0' }]);
    await h.controller.checkNow();
    h.controller.syncChanged(syncView({ state: 'up-to-date', runState: 'idle' }));
    h.controller.restartNow();
    expect(h.restart).toHaveBeenCalledTimes(1);
    expect(h.controller.view()).toMatchObject({ state: 'installing', version: '1.1.0' });
  });

  it('"Restart now" while files are being sent waits for the queue to be idle, says so, then restarts', async () => {
    const h = harness([{ outcome: 'downloaded', version: '1.1.0' }]);
    await h.controller.checkNow();
    const sending = syncView({ state: 'syncing', runState: 'syncing', counts: { waiting: 3, running: 2, done: 0, failed: 0, attention: 0, cancelled: 0 } });
    h.controller.syncChanged(sending);
    h.controller.restartNow();
    expect(h.restart).not.toHaveBeenCalled();
    expect(h.controller.view()).toMatchObject({ state: 'waiting-for-uploads', reason: 'Waiting for 2 files being sent to finish before restarting.' });
    expect(updatesStateWords(h.controller.view())).toBe('Version 1.1.0 installs once the files being sent are done');
    h.controller.syncChanged({ ...sending, counts: { ...sending.counts, running: 1 } });
    expect(h.controller.view()).toMatchObject({ state: 'waiting-for-uploads', reason: 'Waiting for 1 file being sent to finish before restarting.' });
    expect(h.restart).not.toHaveBeenCalled();
    h.controller.syncChanged(syncView({ state: 'up-to-date', runState: 'idle' }));
    expect(h.restart).toHaveBeenCalledTimes(1);
    expect(h.controller.view().state).toBe('installing');
  });

  it('waits for sync to report before restarting, and a paused or offline queue with waiting files does not hold it back', async () => {
    expect(uploadsUnderWay(null)).toBe(true);
    expect(uploadsUnderWay(syncView({ state: 'paused', runState: 'paused', queuePaused: true, counts: { waiting: 4, running: 0, done: 0, failed: 0, attention: 0, cancelled: 0 } }))).toBe(false);
    expect(uploadsUnderWay(syncView({ state: 'offline', runState: 'waiting', counts: { waiting: 4, running: 0, done: 0, failed: 0, attention: 0, cancelled: 0 } }))).toBe(false);
    const h = harness([{ outcome: 'downloaded', version: '1.1.0' }]);
    await h.controller.checkNow();
    h.controller.restartNow();
    expect(h.controller.view()).toMatchObject({ state: 'waiting-for-uploads', reason: 'Waiting for sync to report its state before restarting.' });
    h.controller.syncChanged(syncView({ state: 'paused', runState: 'paused', queuePaused: true }));
    expect(h.restart).toHaveBeenCalledTimes(1);
  });

  it('"Restart now" does nothing before an update is ready', async () => {
    const h = harness([]);
    h.controller.restartNow();
    await h.controller.checkNow();
    h.controller.restartNow();
    expect(h.restart).not.toHaveBeenCalled();
  });
});

describe('what a failed update says', () => {
  const feed = 'https://updates.design-sync.example/';
  it('names a refused download, a signature that is not the publisher\'s, a missing channel file and anything else', () => {
    expect(updateProblem(error('ERR_CHECKSUM_MISMATCH', 'sha512 checksum mismatch, expected a, got b'), feed)).toMatchObject({ kind: 'refused', reason: expect.stringContaining('thrown away and nothing was installed') });
    expect(updateProblem(error('ERR_UPDATER_INVALID_SIGNATURE', 'New version 1.1.0 is not signed by the application owner: publisherNames: x'), feed)).toMatchObject({ kind: 'refused', reason: expect.stringContaining("not signed by design-sync's publisher") });
    expect(updateProblem(Object.assign(new Error('404 Not Found'), { statusCode: 404 }), feed)).toMatchObject({ kind: 'unreachable', reason: `The update feed at ${feed} did not have the release information (HTTP 404). It will be asked again later.` });
    expect(updateProblem(new Error('net::ERR_INTERNET_DISCONNECTED'), feed)).toMatchObject({ kind: 'unreachable' });
    expect(updateProblem('something odd', null)).toMatchObject({ kind: 'other', reason: 'Checking for updates failed: something odd. It will be tried again later.' });
  });
});

describe('the window\'s update requests, answered by the main process', () => {
  it('gives the state, checks now, restarts, and refuses input the contract does not take', async () => {
    const { answerUpdatesRequest, isUpdatesRequest } = await import('../../electron/shell/updates/updates-contract');
    const h = harness([{ outcome: 'downloaded', version: '1.1.0' }]);
    const answerer = { view: () => h.controller.view(), checkNow: () => void h.controller.checkNow(), restartNow: () => h.controller.restartNow() };
    expect(isUpdatesRequest('updates.get')).toBe(true);
    expect(isUpdatesRequest('settings.get')).toBe(false);
    expect(answerUpdatesRequest('updates.get', {}, answerer)).toMatchObject({ ok: true, value: { state: 'idle', currentVersion: '1.0.0' } });
    expect(answerUpdatesRequest('updates.check', {}, answerer)).toMatchObject({ ok: true, value: { state: expect.stringMatching(/^(checking|downloading)$/) } });
    await vi.waitFor(() => expect(h.controller.view().state).toBe('ready'));
    h.controller.syncChanged(syncView({ runState: 'syncing', counts: { waiting: 0, running: 1, done: 0, failed: 0, attention: 0, cancelled: 0 } }));
    expect(answerUpdatesRequest('updates.restart', {}, answerer)).toMatchObject({ ok: true, value: { state: 'waiting-for-uploads', reason: 'Waiting for 1 file being sent to finish before restarting.' } });
    expect(answerUpdatesRequest('updates.restart', { force: true }, answerer)).toMatchObject({ ok: false, problem: { kind: 'validation', fieldErrors: { force: ['is not a known field'] } } });
    expect(answerUpdatesRequest('settings.get', {}, answerer)).toMatchObject({ ok: false, problem: { kind: 'unknown-request' } });
    expect(h.restart).not.toHaveBeenCalled();
  });
});
