/** The size of a picture drawn from a model: a card's 4:3, sharp on a 2× screen at the card's width. */
export const THUMBNAIL_WIDTH = 400;
export const THUMBNAIL_HEIGHT = 300;
