import { describe, expect, it } from 'vitest';
import { descriptionAsText, descriptionRepeatsExcerpt, isPlainTextDescription, plainTextParagraphs } from '../../shared/text/description-text';

describe('a design description, as plain text or HTML', () => {
  it('is plain text when it has no markup at all, whatever "<" and "&" it holds', () => {
    expect(isPlainTextDescription('The lightsaber of the Grand Inquisitor!\r\n\r\nOne side of the assembly')).toBe(true);
    expect(isPlainTextDescription('Tolerance < 0.2 mm, fits M3 & M4 <3')).toBe(true);
    expect(isPlainTextDescription('Tom &amp; Jerry')).toBe(true);
    expect(isPlainTextDescription('')).toBe(true);
  });

  it('is HTML as soon as it holds a tag, a comment or a doctype', () => {
    expect(isPlainTextDescription('<p>Twenty <em>teeth</em></p>')).toBe(false);
    expect(isPlainTextDescription('line one<br/>line two')).toBe(false);
    expect(isPlainTextDescription('see <a href="https://example.org">notes</a>\r\n\r\nmore')).toBe(false);
    expect(isPlainTextDescription('text <!-- hidden -->')).toBe(false);
    expect(isPlainTextDescription('<script>alert(1)</script>')).toBe(false);
  });

  it('splits plain text into paragraphs at blank lines, and each paragraph into its lines', () => {
    expect(plainTextParagraphs('First line\r\nsecond line\r\n\r\nNew paragraph.\r\n \r\n\r\nLast  one   ')).toEqual([
      ['First line', 'second line'],
      ['New paragraph.'],
      ['Last  one'],
    ]);
    expect(plainTextParagraphs('one\ntwo\rthree')).toEqual([['one', 'two', 'three']]);
    expect(plainTextParagraphs('\r\n\r\n')).toEqual([]);
    expect(plainTextParagraphs('Tom &amp; Jerry &#8212; &lt;b&gt;')).toEqual([['Tom & Jerry — <b>']]);
  });

  it('repeats the excerpt when it begins with the excerpt\'s words, as text or as HTML', () => {
    expect(descriptionRepeatsExcerpt('<p>A planetary gearbox, 4:1.</p><h3>Features</h3>', 'A planetary gearbox, 4:1.')).toBe(true);
    expect(descriptionRepeatsExcerpt('<p>Bolts &amp; nuts, M3.</p>', 'Bolts & nuts, M3.')).toBe(true);
    expect(descriptionRepeatsExcerpt('Stryfe 180 Motor Cover', 'Stryfe 180 Motor Cover')).toBe(true);
    expect(descriptionRepeatsExcerpt('stryfe 180   motor cover\r\n\r\nPrint it in PETG.', 'Stryfe 180 Motor Cover')).toBe(true);
  });

  it('does not repeat it when the words differ, stop inside a word, or either is empty', () => {
    expect(descriptionRepeatsExcerpt('Nerf KG9 barrel extension', 'KG9 Barrel extension')).toBe(false);
    expect(descriptionRepeatsExcerpt('Gears for a clock', 'Gear')).toBe(false);
    expect(descriptionRepeatsExcerpt('', 'A gear')).toBe(false);
    expect(descriptionRepeatsExcerpt('A gear', '')).toBe(false);
  });
});

describe('a design description as text for a terminal', () => {
  it('keeps plain text\'s paragraphs and line breaks', () => {
    expect(descriptionAsText('The lightsaber!\r\n\r\nBe sure to print:\r\n2 Emitter Shrouds\r\n2 Lower Emitters')).toBe('The lightsaber!\n\nBe sure to print:\n2 Emitter Shrouds\n2 Lower Emitters');
  });

  it('turns HTML into paragraphs: blocks and <br> break, source line breaks are spaces, scripts and tags go', () => {
    expect(descriptionAsText('<p>Twenty\n  <em>teeth</em>, module 1.</p><script>alert(1)</script><h3>Features</h3><ul><li>Fast</li><li>M3 &amp; M4</li></ul><p>one<br>two</p>'))
      .toBe('Twenty teeth, module 1.\n\nFeatures\n\n- Fast\n- M3 & M4\n\none\ntwo');
  });

  it('lets no control character reach the terminal, written or as a reference', () => {
    expect(descriptionAsText('red \u001b[31malert\u0007 &#27;[2J done')).toBe('red [31malert [2J done');
  });
});
