import type { ServiceDatabase } from '../database/open-database';

/**
 * Where pages of the published listing ended, so that the next page need not be found by stepping over every design
 * before it: a client walking a million designs page after page made the service step over half a million ids (about
 * 40 ns each: 20 ms) before each page half-way through, 200 s of its time for the whole walk. A bookmark says which
 * id is at an offset of the listing; it holds only while nothing was written since it was taken (this connection's
 * total_changes() and the database's data_version, which other connections' commits move, unchanged).
 */
export class ListingBookmarks {
  private stamp = '';
  /** Offset in the listing → the id there. */
  private readonly marks = new Map<number, number>();

  constructor(private readonly db: ServiceDatabase, private readonly capacity = 32) {}

  /** The nearest bookmark at or before `offset`, if nothing was written since it was taken. */
  nearest(offset: number): { offset: number; id: number } | null {
    this.forgetIfWritten();
    let best: { offset: number; id: number } | null = null;
    for (const [at, id] of this.marks) if (at <= offset && (!best || at > best.offset)) best = { offset: at, id };
    return best;
  }

  /**
   * Notes the id at an offset of the listing (where a page began, where it ended), read since nearest() was asked in
   * the same request: nothing can have been written in between, so the stamp is not read again.
   */
  note(offset: number, id: number): void {
    this.marks.delete(offset);
    this.marks.set(offset, id);
    while (this.marks.size > this.capacity) this.marks.delete(this.marks.keys().next().value!);
  }

  private forgetIfWritten(): void {
    const { changes } = this.db.prepare('SELECT total_changes() AS changes').get() as { changes: number };
    const stamp = `${changes}:${this.db.pragma('data_version', { simple: true }) as number}`;
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    this.marks.clear();
  }
}
