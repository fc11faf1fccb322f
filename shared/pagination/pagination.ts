/** Response headers that carry paging for list endpoints (docs/service-choices.md). */
export const PAGINATION_HEADERS = {
  currentPage: 'x-pagination-current-page',
  nextPage: 'x-pagination-next-page',
  previousPage: 'x-pagination-previous-page',
  firstPage: 'x-pagination-first-page',
  lastPage: 'x-pagination-last-page',
  totalCount: 'x-pagination-total-count',
  perPage: 'x-pagination-per-page',
} as const;

export const DEFAULT_PAGE_SIZE = 18;
export const MAX_PAGE_SIZE = 100;
