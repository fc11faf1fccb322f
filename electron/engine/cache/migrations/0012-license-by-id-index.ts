import type Database from 'better-sqlite3';

/**
 * The ids index (0008) with each design's license beside its id. Words with a license filter look up the license of
 * each of the words' newest matches (up to 2,001 of them: design-counts.ts): through the table, each lookup read a page
 * of wide rows, 200–420 ms for one search when those pages were not in memory (a million designs take 1.2 GB); this
 * index of a million designs is about 20 MB, and read from it the same search takes 9–40 ms. Newest-first paging reads
 * it as it read the ids alone.
 */
export function migration0012LicenseByIdIndex(db: Database.Database): void {
  db.exec(`
    DROP INDEX designs_by_id;
    CREATE INDEX designs_by_id_license ON designs(id, license);
  `);
}
