import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/engine/api/service-error';
import { Connectivity, type ConnectivityClock } from '../../../electron/engine/runtime/connectivity';

/** A clock the test moves by hand: timers run when their time comes, never on their own. */
function manualClock() {
  let now = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  let nextId = 1;
  const clock: ConnectivityClock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  return {
    clock,
    pending: () => timers.size,
    nextAt: () => Math.min(...[...timers.values()].map((timer) => timer.at)),
    /** Moves time on to `ms`, running each timer that falls due (and those they set), in order. */
    async advanceTo(ms: number) {
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= ms).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
        for (let i = 0; i < 5; i++) await Promise.resolve();
      }
      now = ms;
    },
  };
}

/** A service the probe reaches: up (an answer) or down (no answer), as the test says; every probe counted. */
function probeOf(_connectivity: Connectivity, service: { up: boolean; probes: number }) {
  return async () => {
    service.probes += 1;
    if (!service.up) throw new ServiceError({ kind: 'offline', message: 'refused', maybeApplied: false }, 'GET', '/v1/designs');
  };
}

describe('connectivity, the engine\'s one source of whether the service answers', () => {
  it('probes nothing while online and no window watches', async () => {
    const time = manualClock();
    const connectivity = new Connectivity({ clock: time.clock, random: () => 0.5 });
    const service = { up: true, probes: 0 };
    connectivity.setProbe(probeOf(connectivity, service));
    const stop = connectivity.follow();
    expect(time.pending()).toBe(0);
    stop();
  });

  it('while a window watches, notices the service going away within 10 s, and its return with a short backoff', async () => {
    const time = manualClock();
    const connectivity = new Connectivity({ clock: time.clock, random: () => 0.5 });
    const service = { up: true, probes: 0 };
    connectivity.setProbe(probeOf(connectivity, service));
    const changes: boolean[] = [];
    connectivity.on('change', (state) => changes.push(state.online));
    const unwatch = connectivity.watch();

    await time.advanceTo(30_000);
    expect(service.probes).toBe(6); // every 5 s while it answers
    service.up = false;
    const wentAway = 30_000;
    await time.advanceTo(wentAway + 10_000);
    expect(changes).toEqual([false]);
    expect(connectivity.state.since - wentAway).toBeLessThanOrEqual(6_000);

    service.up = true;
    const back = time.clock.now();
    await time.advanceTo(back + 8_000);
    expect(changes).toEqual([false, true]);

    unwatch();
    expect(time.pending()).toBe(0);
  });

  it('skips the watch probe when the service answered meanwhile', async () => {
    const time = manualClock();
    const connectivity = new Connectivity({ clock: time.clock, random: () => 0.5 });
    const service = { up: true, probes: 0 };
    connectivity.setProbe(probeOf(connectivity, service));
    connectivity.watch();
    for (let at = 1_000; at <= 30_000; at += 1_000) {
      await time.advanceTo(at);
      connectivity.noticeAnswer(); // the engine's own requests, every second
    }
    expect(service.probes).toBe(0);
  });

  it('waits for the service for the queue: probes with backoff while offline, tells the waiter once it answers', async () => {
    const time = manualClock();
    const connectivity = new Connectivity({ clock: time.clock, random: () => 0.5 });
    const service = { up: false, probes: 0 };
    connectivity.setProbe(probeOf(connectivity, service));
    connectivity.noticeProblem({ kind: 'offline', message: 'refused', maybeApplied: false });
    expect(time.pending()).toBe(0); // nobody needs to know yet
    let told = 0;
    connectivity.awaitOnline(() => (told += 1));
    await time.advanceTo(20_000);
    expect(service.probes).toBeGreaterThan(1);
    expect(told).toBe(0);
    service.up = true;
    await time.advanceTo(time.nextAt());
    expect(told).toBe(1);
    expect(connectivity.isOnline()).toBe(true);
    expect(time.pending()).toBe(0);
  });

  it('with only the background following, down for hours: probes at most every 8 s, and notices the return within 10 s', async () => {
    const time = manualClock();
    const connectivity = new Connectivity({ clock: time.clock, random: () => 0.99 });
    const service = { up: false, probes: 0 };
    connectivity.setProbe(probeOf(connectivity, service));
    connectivity.follow();
    connectivity.noticeProblem({ kind: 'offline', message: 'refused', maybeApplied: false });
    const hours = 3 * 60 * 60 * 1000;
    await time.advanceTo(hours);
    // Light: about 450 an hour, never more often than the backoff's first steps.
    expect(service.probes).toBeLessThanOrEqual((hours / 8_000) + 10);
    expect(service.probes).toBeGreaterThanOrEqual(hours / 8_000 - 10);
    service.up = true;
    const back = time.clock.now();
    await time.advanceTo(back + 10_000);
    expect(connectivity.isOnline()).toBe(true);
    expect(connectivity.state.since - back).toBeLessThanOrEqual(8_000);
  });
});
