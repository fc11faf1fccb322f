interface Waiter {
  predicate: () => boolean;
  resolve: () => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

/** Promises that resolve once a predicate holds, checked whenever the runner says something changed. */
export class RunnerWaiters {
  private waiters: Waiter[] = [];

  get size(): number {
    return this.waiters.length;
  }

  /** Resolves once `predicate` holds (checked now, then at every check()); rejects after `timeoutMs` with `describe()`. */
  wait(predicate: () => boolean, timeoutMs: number | undefined, describe: () => string): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { predicate, resolve, reject };
      if (timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          this.remove(waiter);
          reject(new Error(`The queue did not get there within ${timeoutMs} ms (${describe()}).`));
        }, timeoutMs);
      }
      this.waiters.push(waiter);
    });
  }

  check(): void {
    for (const waiter of [...this.waiters]) {
      let met = false;
      try {
        met = waiter.predicate();
      } catch (error) {
        this.remove(waiter);
        waiter.reject(error as Error);
        continue;
      }
      if (met) {
        this.remove(waiter);
        waiter.resolve();
      }
    }
  }

  rejectAll(error: Error): void {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  private remove(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters = this.waiters.filter((w) => w !== waiter);
  }
}
