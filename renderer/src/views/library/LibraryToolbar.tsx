import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LibrarySort, LicenseCode } from '../../../../shared';
import { LICENSE_CODES, LICENSES } from '../../../../shared/licenses/licenses';
import { formatBytes } from '../../../../shared/i18n/format';
import type { MessageId } from '../../../../shared/i18n/messages';
import { licenseTitle } from '../design/license-words';
import { useKept } from '../../stores/kept-store';
import { useLibrary } from '../../stores/library-store';
import { offerSearchFocus } from './search-shortcut';
import { ServiceSearchNote } from './ServiceSearchNote';

const SORTS: { value: LibrarySort; label: MessageId }[] = [
  { value: 'newest', label: 'library.sort.newest' },
  { value: 'popular', label: 'library.sort.popular' },
  { value: 'name', label: 'library.sort.name' },
  { value: 'updated', label: 'library.sort.updated' },
];

/** Between the count and what is not indexed yet ("120 designs · 3 cached designs not indexed…"): a mark, not a word. */
const SEPARATOR = ' · ';

export function LibraryToolbar() {
  const intl = useIntl();
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
        <span className="visually-hidden"><FormattedMessage id="library.search.label" /></span>
        <input ref={search} type="search" aria-keyshortcuts="/ Control+K Meta+K" placeholder={intl.formatMessage({ id: 'library.search.placeholder' })} value={filter.query} onChange={(event) => setFilter({ query: event.target.value })} />
      </label>
      <label>
        <span><FormattedMessage id="library.filter.licenseLabel" /></span>
        <select value={filter.license} onChange={(event) => setFilter({ license: event.target.value as LicenseCode | '' })}>
          <option value="">{intl.formatMessage({ id: 'library.filter.allLicenses' })}</option>
          {LICENSE_CODES.map((code) => <option key={code} value={code}>{licenseTitle(intl, LICENSES[code])}</option>)}
        </select>
      </label>
      <label>
        <span><FormattedMessage id="library.sort.label" /></span>
        <select value={filter.sort} onChange={(event) => setFilter({ sort: event.target.value as LibrarySort })}>
          {SORTS.map((sort) => <option key={sort.value} value={sort.value}>{intl.formatMessage({ id: sort.label })}</option>)}
        </select>
      </label>
      <label className="kept-filter">
        <input type="checkbox" checked={filter.kept} onChange={(event) => setFilter({ kept: event.target.checked })} />
        <span><FormattedMessage id="library.filter.kept" /></span>
        {keptDesigns !== null && keptDesigns > 0 ? (
          <span className="kept-space" data-testid="kept-space">
            <FormattedMessage id="library.filter.keptSpace" values={{ designs: keptDesigns, size: formatBytes(intl, keptBytes) }} />
          </span>
        ) : null}
      </label>
      {/* A line of its own, always there: a note appearing in it moves nothing. */}
      <div className="toolbar-status">
        <ServiceSearchNote />
        <p className="count" aria-live="polite">
          {total === null ? null : <FormattedMessage id={atLeast ? 'library.count.atLeast' : 'library.count.exact'} values={{ count: total }} />}
          {notSearchedYet > 0 && (
            <span data-testid="not-searched-yet">
              {SEPARATOR}<FormattedMessage id="library.count.notIndexed" values={{ count: notSearchedYet }} />
            </span>
          )}
        </p>
      </div>
    </div>
  );
}
