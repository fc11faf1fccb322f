import type Database from 'better-sqlite3';
import { migration0001Initial } from './0001-initial';
import { migration0002Counters } from './0002-counters';
import { migration0003Attribution } from './0003-attribution';

/** Ordered; only ever appended to. Index + 1 is the schema version it produces. */
export const MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [migration0001Initial, migration0002Counters, migration0003Attribution];
