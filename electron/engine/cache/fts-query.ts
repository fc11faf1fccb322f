const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The words of what a person typed, as the unicode61 tokenizer sees them: runs of letters, digits and marks, lower-cased, deduplicated. */
export function searchWords(input: string, maxWords = 12): string[] {
  const words = input.normalize('NFC').match(WORD) ?? [];
  return [...new Set(words.map((word) => word.toLowerCase()))].slice(0, maxWords);
}

/**
 * Turns what a person typed into an FTS5 MATCH expression that cannot fail to parse: each word becomes a
 * quoted prefix query ("gear"* "box"*), joined by FTS5's implicit AND. Since words are only letters, digits
 * and marks, quotes, operators (AND, OR, NOT, NEAR(…), -, *, ^, :, parentheses) and symbols such as emoji are
 * never syntax. Null when nothing searchable was typed.
 */
export function ftsQuery(input: string, maxWords = 12): string | null {
  const words = searchWords(input, maxWords);
  if (words.length === 0) return null;
  return words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(' ');
}

/** The same words as whole words ("gear" "box"): FTS5 reads a whole term lazily, where a prefix term past the prefix indexes is gathered whole first. */
export function ftsWholeWordQuery(input: string, maxWords = 12): string | null {
  const words = searchWords(input, maxWords);
  if (words.length === 0) return null;
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' ');
}

/** Case and accents folded as the tokenizer's remove_diacritics does, so "Café" and "cafe" compare equal. */
export function foldForSearch(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

const WORD_CHAR = /[\p{L}\p{N}\p{Co}]/u;
const isWordChar = (char: string | undefined) => char !== undefined && (/[a-z0-9]/.test(char) || (char > '\x7f' && WORD_CHAR.test(char)));

/** How `word` (folded) occurs in `text` (folded): 2 as a whole word, 1 as the start of a word, 0 not at all. */
export function wordMatch(text: string, word: string): 0 | 1 | 2 {
  let found: 0 | 1 | 2 = 0;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (isWordChar(text[at - 1])) continue;
    if (!isWordChar(text[at + word.length])) return 2;
    found = 1;
  }
  return found;
}
