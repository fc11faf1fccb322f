import { describe, expect, it } from 'vitest';
import { htmlToPlainText, htmlWords } from '../../../electron/engine/cache/html-text';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('the text of a description\'s HTML', () => {
  it('is what a person reads: blocks apart, inline elements joined, entities decoded, scripts, styles, attributes and comments left out', () => {
    const html = '<h2>Parts</h2><ul><li>ge<b>ar</b></li><li>axle&nbsp;&amp;&#x263A;</li></ul><a href="https://x.test/secret">box</a>'
      + '<img src="/y.png" alt="hidden alt"><style>.a{color:red}</style><script>var s = "<p>x</p>";</script><!-- note --><![CDATA[cdata]]><P>End</P>';
    expect(words(htmlWords(html))).toEqual(['Parts', 'gear', 'axle', '&☺', 'box', 'End']);
    expect(htmlToPlainText(html)).toBe('Parts gear axle &☺ box End');
  });

  it('of a fragment that leaves a script, style, title or textarea open, is read, and so is every fragment after it', () => {
    for (const open of ['script', 'style', 'title', 'textarea', 'SCRIPT']) {
      expect(htmlToPlainText(`<p>shown</p><${open}>hidden or not`)).toMatch(/^shown/);
      expect(htmlToPlainText('<p>next <b>one</b></p>')).toBe('next one');
      expect(htmlToPlainText('plain & simple')).toBe('plain & simple');
    }
  });

  it('keeps text without markup as it is, white space collapsed only in the plain text', () => {
    expect(htmlWords('plain   text\n here')).toBe('plain   text\n here');
    expect(htmlToPlainText('plain   text\n here')).toBe('plain text here');
    expect(htmlWords('')).toBe('');
    expect(htmlToPlainText('<p>unclosed <b>bold')).toBe('unclosed bold');
  });
});
