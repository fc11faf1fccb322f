import type Database from 'better-sqlite3';
import { migration0001SyncState } from './0001-sync-state';
import { migration0002QueueSent } from './0002-queue-sent';
import { migration0003QueueDesignEdits } from './0003-queue-design-edits';
import { migration0004ScanIndexes } from './0004-scan-indexes';
import { migration0005FoldersMade } from './0005-folders-made';
import { migration0006QueueFinishedIndex } from './0006-queue-finished-index';
import { migration0007HeldBack } from './0007-held-back';
import { migration0008ReadyToPublish } from './0008-ready-to-publish';
import { migration0009TimedPause } from './0009-timed-pause';
import { migration0010EngineWords } from './0010-engine-words';

/** Ordered; only ever appended to. Index + 1 is the schema version it produces. */
export const SYNC_MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [migration0001SyncState, migration0002QueueSent, migration0003QueueDesignEdits, migration0004ScanIndexes, migration0005FoldersMade, migration0006QueueFinishedIndex, migration0007HeldBack, migration0008ReadyToPublish, migration0009TimedPause, migration0010EngineWords];
