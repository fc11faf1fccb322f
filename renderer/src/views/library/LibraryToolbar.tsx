import { useEffect, useRef } from 'react';
import type { LibrarySort, LicenseCode } from '../../../../shared';
import { LICENSE_CODES, LICENSES } from '../../../../shared/licenses/licenses';
import { byteSize } from '../../../../shared/text/byte-size';
import { useKept } from '../../stores/kept-store';
import { useLibrary } from '../../stores/library-store';
import { offerSearchFocus } from './search-shortcut';
import { ServiceSearchNote } from './ServiceSearchNote';

const SORTS: { value: LibrarySort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'popular', label: 'Most popular' },
  { value: 'name', label: 'Name' },
  { value: 'updated', label: 'Recently updated' },
];

export function LibraryToolbar() {
  const filter = useLibrary((store) => store.filter);
  const total = useLibrary((store) => store.total);
  const atLeast = useLibrary((store) => store.totalIsLowerBound);
  const notSearchedYet = useLibrary((store) => store.notSearchedYet);
  const setFilter = useLibrary((store) => store.setFilter);
  const keptDesigns = useKept((store) => (store.designs === null ? null : Object.keys(store.designs).length));
  const keptBytes = useKept((store) => store.bytes);
  const loadKept = useKept((store) => store.load);
  useEffect(() => void loadKept(), [loadKept]);
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => offerSearchFocus(() => {
    search.current?.focus();
    search.current?.select();
  }), []);
  return (
    <div className="toolbar" role="search">
      <label className="search">
        <span className="visually-hidden">Search designs</span>
        <input ref={search} type="search" aria-keyshortcuts="/ Control+K Meta+K" placeholder="Search designs (works offline)" value={filter.query} onChange={(event) => setFilter({ query: event.target.value })} />
      </label>
      <label>
        <span>License</span>
        <select value={filter.license} onChange={(event) => setFilter({ license: event.target.value as LicenseCode | '' })}>
          <option value="">All licenses</option>
          {LICENSE_CODES.map((code) => <option key={code} value={code}>{LICENSES[code].title}</option>)}
        </select>
      </label>
      <label>
        <span>Sort</span>
        <select value={filter.sort} onChange={(event) => setFilter({ sort: event.target.value as LibrarySort })}>
          {SORTS.map((sort) => <option key={sort.value} value={sort.value}>{sort.label}</option>)}
        </select>
      </label>
      <label className="kept-filter">
        <input type="checkbox" checked={filter.kept} onChange={(event) => setFilter({ kept: event.target.checked })} />
        <span>Kept offline</span>
        {keptDesigns !== null && keptDesigns > 0 ? <span className="kept-space" data-testid="kept-space">{`${keptDesigns.toLocaleString()} · ${byteSize(keptBytes)}`}</span> : null}
      </label>
      {/* A line of its own, always there: a note appearing in it moves nothing. */}
      <div className="toolbar-status">
        <ServiceSearchNote />
        <p className="count" aria-live="polite">
          {total === null ? '' : `${total.toLocaleString()}${atLeast ? '+' : ''} design${total === 1 && !atLeast ? '' : 's'}`}
          {notSearchedYet > 0 && <span data-testid="not-searched-yet">{` · ${notSearchedYet.toLocaleString()} cached design${notSearchedYet === 1 ? '' : 's'} not indexed for search yet`}</span>}
        </p>
      </div>
    </div>
  );
}
