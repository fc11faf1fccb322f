import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The window's styles name sides by the direction of the text (margin-inline-start, inset-inline-end, text-align:
 * start), never left and right, so that a right-to-left language can come without touching a layout.
 */
const PHYSICAL = /(?:^|[\s;{])((?:margin|padding|border)-(?:left|right)(?:-\w+)?|left|right)\s*:|text-align\s*:\s*(?:left|right)\b|float\s*:\s*(?:left|right)\b/gm;

function cssFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? cssFiles(path) : name.endsWith('.css') ? [path] : [];
  });
}

/** Each physical side a style names, as `file:line: declaration`. */
function physicalSides(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => [...line.matchAll(PHYSICAL)].map((match) => `${file}:${i + 1}: ${match[0].trim()}`));
}

describe('the window\'s styles', () => {
  it('name sides by the text\'s direction, never left or right', () => {
    const found = cssFiles('renderer/src').flatMap((file) => physicalSides(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds a style that names a physical side (the check itself works)', () => {
    expect(physicalSides('x.css', '.a { margin-left: 4px; }\n.b { position: absolute; right: 0; }\n.c { text-align: left; }\n.d { inset-inline-start: 0; }')).toEqual([
      'x.css:1: margin-left:', 'x.css:2: right:', 'x.css:3: text-align: left',
    ]);
  });
});
