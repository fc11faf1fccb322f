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

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Case and accents folded as the tokenizer's remove_diacritics does, so "Café" and "cafe" compare equal. */
export function foldForSearch(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

const WORD_CHAR = /[\p{L}\p{N}\p{Co}]/u;
/** a-z and 0-9: the ASCII characters of folded text that are part of a word. */
const isAsciiWordCode = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);

/** Whether a character of folded text is part of a word: a-z and 0-9 of ASCII, and letters, digits and private-use characters past it. */
function isWordChar(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  return code < 0x80 ? isAsciiWordCode(code) : WORD_CHAR.test(char);
}

const LETTERS_AND_DIGITS = /[\p{L}\p{N}]+/gu;

/** How many runs of letters and digits `text` (folded) holds: its words, for ranking a shorter name first. */
export function countWords(text: string): number {
  if (!ASCII_ONLY.test(text)) return text.match(LETTERS_AND_DIGITS)?.length ?? 0;
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const wordChar = isAsciiWordCode(code) || (code >= 0x41 && code <= 0x5a);
    if (wordChar && !inWord) words++;
    inWord = wordChar;
  }
  return words;
}

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
