const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const isJsonSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** The index just past the string whose opening quote is at `at`. */
function pastString(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return -1;
}

/**
 * The source text of each element of `text`'s top-level array (a byte-order mark and white space around it allowed),
 * or null when its value is not an array. `text` must be JSON that JSON.parse has read: only strings and nesting are
 * followed here, nothing is checked. A pull keeps each design as the service sent it: cutting the answer it already
 * read costs a fraction of writing every design out again with JSON.stringify.
 */
export function jsonArrayElementTexts(text: string): string[] | null {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) !== OPEN_BRACKET) return null;
  const elements: string[] = [];
  let depth = 0;
  let start = -1;
  for (at++; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (isJsonSpace(code)) continue;
    if (start === -1 && depth === 0) {
      if (code === CLOSE_BRACKET) return elements;
      start = at;
    }
    if (code === QUOTE) {
      at = pastString(text, at) - 1;
      if (at < 0) return null;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
    } else if (code === CLOSE_BRACE || (code === CLOSE_BRACKET && depth > 0)) {
      depth--;
    } else if (depth === 0 && (code === COMMA || code === CLOSE_BRACKET)) {
      let end = at;
      while (isJsonSpace(text.charCodeAt(end - 1))) end--;
      elements.push(text.slice(start, end));
      if (code === CLOSE_BRACKET) return elements;
      start = -1;
    }
  }
  return null;
}
