import { describe, expect, it } from 'vitest';
import { focusMove } from '../../renderer/src/views/library/grid-keys';

const key = (name: string, modifiers: { ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean; shiftKey?: boolean } = {}) =>
  ({ key: name, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...modifiers });

// A grid of 4 columns holding 10 cards: rows 0–3, 4–7, and a shorter last row 8–9.
const move = (name: string, index: number, modifiers = {}) => focusMove(key(name, modifiers), index, 4, 10);

describe('the library grid\'s keys', () => {
  it('moves Left and Right within the row, never wrapping to another', () => {
    expect(move('ArrowRight', 5)).toBe(6);
    expect(move('ArrowRight', 7)).toBe(7);
    expect(move('ArrowLeft', 4)).toBe(4);
    expect(move('ArrowRight', 9)).toBe(9);
  });

  it('moves Up and Down by a row, to the last card from above a shorter last row, and stays at the edges', () => {
    expect(move('ArrowDown', 1)).toBe(5);
    expect(move('ArrowDown', 7)).toBe(9);
    expect(move('ArrowDown', 9)).toBe(9);
    expect(move('ArrowUp', 9)).toBe(5);
    expect(move('ArrowUp', 2)).toBe(2);
  });

  it('goes to the row\'s ends with Home and End, and to the first and last card with Ctrl (or Cmd)', () => {
    expect(move('Home', 6)).toBe(4);
    expect(move('End', 5)).toBe(7);
    expect(move('End', 8)).toBe(9);
    expect(move('Home', 6, { ctrlKey: true })).toBe(0);
    expect(move('End', 1, { metaKey: true })).toBe(9);
  });

  it('leaves other keys, and arrows with a modifier, to the browser', () => {
    expect(move('Enter', 3)).toBeNull();
    expect(move('ArrowRight', 3, { shiftKey: true })).toBeNull();
    expect(move('ArrowDown', 3, { ctrlKey: true })).toBeNull();
    expect(move('ArrowLeft', 3, { altKey: true })).toBeNull();
  });
});
