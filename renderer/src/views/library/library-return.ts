/**
 * Where the library was when it was left (for a design, by its card, or for another view): coming back by
 * "← Library", the Back button or the Library tab finds the grid scrolled where it was, and the card that was opened
 * focused again.
 */
interface LibraryPlace {
  scrollTop: number;
  columns: number;
  /** The design whose card was opened last (its link gets the focus back). */
  openedId: number | null;
  /** Set when the library view is left, taken by the grid when it shows again. */
  left: boolean;
}

const place: LibraryPlace = { scrollTop: 0, columns: 0, openedId: null, left: false };

export function noteLibraryScroll(scrollTop: number, columns: number): void {
  place.scrollTop = scrollTop;
  place.columns = columns;
}

export function noteCardOpened(id: number): void {
  place.openedId = id;
}

export function noteLibraryLeft(): void {
  place.left = true;
}

/** The place to come back to, once (null when the grid shows for another reason: a first visit, a new search). */
export function takeLibraryPlace(): { scrollTop: number; columns: number; openedId: number | null } | null {
  if (!place.left) return null;
  place.left = false;
  const { scrollTop, columns, openedId } = place;
  place.openedId = null;
  return { scrollTop, columns, openedId };
}
