import { describe, expect, it } from 'vitest';
import { offsetShowingRow, rowsOnScreen } from '../../renderer/src/views/library/row-window';

const ROW = 300;

describe('the rows the library grid draws', () => {
  it('draws the rows on screen and two more on each side, none past the ends', () => {
    expect(rowsOnScreen(100, ROW, 0, 900, 2)).toEqual({ first: 0, last: 4 });
    expect(rowsOnScreen(100, ROW, 3000, 900, 2)).toEqual({ first: 8, last: 14 });
    // A row shown by a pixel is on screen.
    expect(rowsOnScreen(100, ROW, 3001, 900, 2)).toEqual({ first: 8, last: 15 });
    expect(rowsOnScreen(100, ROW, 29_100, 900, 2)).toEqual({ first: 95, last: 99 });
  });

  it('draws the same few rows at a million designs as at a hundred, wherever the grid is', () => {
    const range = rowsOnScreen(250_000, ROW, 40_000_000, 900, 2);
    expect(range).toEqual({ first: 133_331, last: 133_338 });
  });

  it('draws what is left when the grid holds fewer rows than its offset reaches (a search that matched fewer)', () => {
    expect(rowsOnScreen(3, ROW, 30_000, 900, 2)).toEqual({ first: 0, last: 2 });
    expect(rowsOnScreen(0, ROW, 0, 900, 2).last).toBeLessThan(rowsOnScreen(0, ROW, 0, 900, 2).first);
  });

  it('scrolls a row above the screen to the top, one below it to the bottom, and one shown whole not at all', () => {
    expect(offsetShowingRow(2, ROW, 1000, 900)).toBe(600);
    expect(offsetShowingRow(7, ROW, 1000, 900)).toBe(1500);
    expect(offsetShowingRow(4, ROW, 1000, 900)).toBeNull();
  });

  it('shows the top of a row taller than the screen', () => {
    expect(offsetShowingRow(0, ROW, 0, 200)).toBeNull();
    expect(offsetShowingRow(3, ROW, 0, 200)).toBe(900);
    expect(offsetShowingRow(3, ROW, 1000, 200)).toBe(900);
  });
});
