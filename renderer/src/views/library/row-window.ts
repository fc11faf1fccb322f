/**
 * Which rows of a list of equally tall rows are drawn, and where the list scrolls to show one. The library's grid is
 * such a list: every row of cards is one height, so what a virtualizer learns by measuring each item is arithmetic
 * here, the same at a million designs as at a hundred. (TanStack Virtual keeps a measurement for each of its items,
 * made again whenever their count changes: 30 ms for the 250,000 rows of a million designs, at each keystroke back to
 * all of them.) Offsets are in the list's own pixels, from its top.
 */

/** Rows `first` to `last`, both drawn; none when `last` < `first`. */
export interface RowRange {
  first: number;
  last: number;
}

/** The rows on screen between `offset` and `offset + viewport`, with `overscan` more on each side. */
export function rowsOnScreen(rows: number, rowHeight: number, offset: number, viewport: number, overscan: number): RowRange {
  if (rows <= 0) return { first: 0, last: -1 };
  const top = Math.max(0, offset);
  const firstShown = Math.min(rows - 1, Math.floor(top / rowHeight));
  const lastShown = Math.min(rows - 1, Math.max(firstShown, Math.ceil((top + viewport) / rowHeight) - 1));
  return { first: Math.max(0, firstShown - overscan), last: Math.min(rows - 1, lastShown + overscan) };
}

export const sameRows = (a: RowRange, b: RowRange) => a.first === b.first && a.last === b.last;

/**
 * The offset that shows row `row` whole, moving the list as little as possible (to the row's top when it is above,
 * its bottom when below; its top when it is taller than the screen); null when it is where it should be already.
 */
export function offsetShowingRow(row: number, rowHeight: number, offset: number, viewport: number): number | null {
  const top = row * rowHeight;
  const bottom = top + rowHeight;
  const to = top < offset || rowHeight > viewport ? top : bottom > offset + viewport ? bottom - viewport : offset;
  return to === offset ? null : to;
}
