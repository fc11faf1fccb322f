import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../electron/engine/api/service-client';
import { RemoteWatch, type WatchTimers } from '../../../electron/engine/sync/remote-watch';

/** Timers the test fires itself: which are armed now, and firing one. */
function manualTimers() {
  const armed: { run: () => void; ms: number; live: boolean; unref(): void }[] = [];
  const timers: WatchTimers = {
    setTimeout(run, ms) {
      const handle = { run, ms, live: true, unref: () => {} };
      armed.push(handle);
      return handle;
    },
    clearTimeout(handle) {
      (handle as { live: boolean }).live = false;
    },
  };
  const live = () => armed.filter((handle) => handle.live);
  const fire = () => {
    const [next] = live();
    if (!next) throw new Error('no timer is armed');
    next.live = false;
    next.run();
  };
  return { timers, live, fire };
}

describe('the remote watch\'s schedule', () => {
  it('keeps one poll scheduled when sync is stopped and started again while a poll is under way', async () => {
    const { timers, live, fire } = manualTimers();
    let release!: () => void;
    const underWay = new Promise<void>((resolve) => (release = resolve));
    let polls = 0;
    // No user known yet and no full pass to ask for: a poll asks nothing of the service (no client needed).
    const watch = new RemoteWatch({
      client: null as unknown as ServiceClient, intervalMs: 1_000, timers, userId: () => null, mayPoll: () => true,
      serial: (work) => underWay.then(() => {
        polls++;
        return work();
      }),
      changed: async () => {}, signal: () => new AbortController().signal,
    });
    watch.start();
    expect(live()).toHaveLength(1);
    fire();
    watch.stop();
    watch.start();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(polls).toBe(1);
    expect(live()).toHaveLength(1);
    fire();
    await new Promise((resolve) => setImmediate(resolve));
    expect(polls).toBe(2);
    expect(live()).toHaveLength(1);
    watch.stop();
    expect(live()).toHaveLength(0);
  });
});
