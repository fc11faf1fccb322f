/**
 * Design descriptions come in two forms: HTML (the spec, the local service) and plain text with "\r\n" line breaks
 * (the live service's recorded answers). Plain text is shown as paragraphs: a blank line starts a new paragraph, a
 * single line break stays a line break.
 */

/** An element tag (`<p>`, `</em>`, `<br/>`, `<a href="…">`), a comment or a doctype: what makes a text HTML. */
const MARKUP = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>|<!--|<!doctype/i;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** A description with no markup at all ("a < b", "<3" and "&" are text): shown as paragraphs, not as HTML. */
export function isPlainTextDescription(description: string): boolean {
  return !MARKUP.test(description);
}

/** The few character references a text without tags may carry, decoded (it was HTML made only of text). */
export function decodeCharacterReferences(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * A plain-text description as paragraphs, each a list of its lines: blank lines (whitespace only) separate
 * paragraphs; "\r\n", "\r" and "\n" all break lines; lines keep their inner spaces, lose their trailing ones.
 */
export function plainTextParagraphs(description: string): string[][] {
  const lines = decodeCharacterReferences(description).split(/\r\n|\r|\n/).map((line) => line.trimEnd());
  const paragraphs: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length > 0) paragraphs.push(current);
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) paragraphs.push(current);
  return paragraphs;
}

/** A description as readable text: tags dropped, references decoded, whitespace collapsed (for comparing, not showing). */
export function descriptionWords(description: string): string {
  const text = isPlainTextDescription(description) ? description : description.replace(/<[^>]*>/g, ' ');
  return decodeCharacterReferences(text).replace(/\s+/g, ' ').trim();
}

/**
 * Whether the description already begins with the excerpt's words (the demo's descriptions open with their excerpt
 * as a first paragraph): then the excerpt is not shown a second time. Case and spacing do not count.
 */
export function descriptionRepeatsExcerpt(description: string, excerpt: string): boolean {
  const words = descriptionWords(excerpt).toLowerCase();
  const text = descriptionWords(description).toLowerCase();
  // "Gear" does not repeat in "Gears for…": the excerpt ends where a word ends.
  return words !== '' && text.startsWith(words) && !/^[\p{L}\p{N}]/u.test(text.slice(words.length));
}

/** Block elements whose ends are paragraph breaks when HTML is turned into text. */
const BLOCK_END = /<\/(?:p|div|h[1-6]|ul|ol|blockquote|pre|table|tr|section|article)\s*>|<(?:hr)\b[^>]*>/gi;

/**
 * A description as readable text for a terminal (`design-sync show`): paragraphs separated by a blank line, line breaks
 * kept, tags dropped, references decoded, and no control character (no escape sequence reaches the terminal).
 */
export function descriptionAsText(description: string): string {
  const plain = isPlainTextDescription(description);
  // HTML's own line breaks are spaces: only <br> and the ends of blocks break lines.
  const text = plain ? description : description
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(BLOCK_END, '\n\n')
    .replace(/<[^>]*>/g, '');
  // Decoded first: a control character may come as a reference ("&#27;").
  const shown = (line: string) => {
    const safe = line.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
    return plain ? safe : safe.replace(/\s+/g, ' ').trim();
  };
  return plainTextParagraphs(text).map((lines) => lines.map(shown).filter((line) => line !== '').join('\n')).filter((p) => p !== '').join('\n\n');
}
