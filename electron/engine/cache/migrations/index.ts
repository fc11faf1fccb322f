import type Database from 'better-sqlite3';
import { migration0001Designs } from './0001-designs';
import { migration0002SearchIndex } from './0002-search-index';
import { migration0003FileIndex } from './0003-file-index';
import { migration0004SearchRowsPending } from './0004-search-rows-pending';
import { migration0005Popularity } from './0005-popularity';
import { migration0006LibrarySorts } from './0006-library-sorts';
import { migration0007CoverIndex } from './0007-cover-index';
import { migration0008NewestIndex } from './0008-newest-index';
import { migration0009NoDescriptionHtml } from './0009-no-description-html';
import { migration0010BulkFill } from './0010-bulk-fill';
import { migration0011SearchTerms } from './0011-search-terms';
import { migration0012LicenseByIdIndex } from './0012-license-by-id-index';
import { migration0013SearchBacklog } from './0013-search-backlog';
import { migration0014BacklogDescriptions } from './0014-backlog-descriptions';
import { migration0015BacklogTextFlag } from './0015-backlog-text-flag';
import { migration0016TagsFromListForm } from './0016-tags-from-list-form';
import { migration0017KeptOffline } from './0017-kept-offline';
import { migration0019KeptProblemWords } from './0019-kept-problem-words';
import { migration0018GeneratedThumbnails } from './0018-generated-thumbnails';
import { migration0020ContentlessSearchIndex } from './0020-contentless-search-index';
import { migration0021NoDescriptionText } from './0021-no-description-text';
import { migration0022CompactForms } from './0022-compact-forms';

/** Ordered; only ever appended to. Index + 1 is the schema version it produces (PRAGMA user_version). */
export const CACHE_MIGRATIONS: ReadonlyArray<(db: Database.Database) => void> = [
  migration0001Designs,
  migration0002SearchIndex,
  migration0003FileIndex,
  migration0004SearchRowsPending,
  migration0005Popularity,
  migration0006LibrarySorts,
  migration0007CoverIndex,
  migration0008NewestIndex,
  migration0009NoDescriptionHtml,
  migration0010BulkFill,
  migration0011SearchTerms,
  migration0012LicenseByIdIndex,
  migration0013SearchBacklog,
  migration0014BacklogDescriptions,
  migration0015BacklogTextFlag,
  migration0016TagsFromListForm,
  migration0017KeptOffline,
  migration0018GeneratedThumbnails,
  migration0019KeptProblemWords,
  migration0020ContentlessSearchIndex,
  migration0021NoDescriptionText,
  migration0022CompactForms,
];
