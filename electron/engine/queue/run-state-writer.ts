import type { QueueStore } from './queue-store';

const RUNNER_STATES = new Set(['idle', 'syncing', 'waiting']);

/**
 * sync_status.state for the queue's part: waiting (with why), syncing, idle. States the folder side set (scanning,
 * stopped, paused) are left alone, and what it wrote (its 'waiting' for a sign-in, its 'idle' with a note) is only
 * replaced by news of the queue's own.
 */
export class RunStateWriter {
  private written: { state: string; reason: string | null } | null = null;

  constructor(private readonly store: QueueStore) {}

  /** `blockReason`: why the whole queue waits (null: it does not); `sending`: items being sent now. */
  update(blockReason: string | null, sending: number): void {
    const status = this.store.status();
    if (!RUNNER_STATES.has(status.state)) return;
    const ours = this.isOurs(status);
    if (blockReason !== null) {
      if (status.state !== 'waiting' || status.reason !== blockReason) this.write('waiting', blockReason);
    } else if (sending > 0) {
      if (status.state !== 'syncing' && (status.state === 'idle' || ours)) this.write('syncing', null);
    } else if (ours && status.state !== 'idle') {
      this.write('idle', null);
    }
  }

  /** The runner stops: what it wrote goes back to idle (what others wrote stays). */
  release(): void {
    const status = this.store.status();
    if (this.isOurs(status) && status.state !== 'idle') this.store.setRunState('idle', null);
    this.written = null;
  }

  private isOurs(status: { state: string; reason: string | null }): boolean {
    return this.written !== null && status.state === this.written.state && status.reason === this.written.reason;
  }

  private write(state: 'idle' | 'syncing' | 'waiting', reason: string | null): void {
    this.written = { state, reason };
    this.store.setRunState(state, reason);
  }
}
