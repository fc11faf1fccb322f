/**
 * Where a key moves focus from card `index` in a grid of `columns` holding `total` cards, or null for a key that is
 * not the grid's: Left/Right within the row, Up/Down by a row (to the last card from above a shorter last row),
 * Home/End to the row's ends, Ctrl+Home/Ctrl+End to the first and last card.
 */
export function focusMove(key: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }, index: number, columns: number, total: number): number | null {
  if (key.altKey || key.shiftKey) return null;
  const rowStart = index - (index % columns);
  const rowEnd = Math.min(total - 1, rowStart + columns - 1);
  const whole = key.ctrlKey || key.metaKey;
  switch (key.key) {
    case 'ArrowLeft': return whole ? null : Math.max(rowStart, index - 1);
    case 'ArrowRight': return whole ? null : Math.min(rowEnd, index + 1);
    case 'ArrowUp': return whole ? null : index - columns >= 0 ? index - columns : index;
    case 'ArrowDown': return whole ? null : rowStart + columns < total ? Math.min(total - 1, index + columns) : index;
    case 'Home': return whole ? 0 : rowStart;
    case 'End': return whole ? total - 1 : rowEnd;
    default: return null;
  }
}
