import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { PatternSet } from '../../../electron/engine/sync/ignore/pattern-set';
import { BUILT_IN_RULES } from '../../../electron/engine/sync/ignore/built-in-rules';
import { seededRandom } from '../../../service/seed/seeded-random';

const ALPHABET = ['a', 'b', 'B', 'z', '1', '9', '.', '-', '_', '~', '#', '$', '@', ' ', 'é'];
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** A random gitignore pattern of the kinds people and the built-in list write. */
function randomPattern(random: () => number): string {
  const parts: string[] = [];
  const length = 1 + Math.floor(random() * 5);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.2) parts.push('*');
    else if (roll < 0.3) parts.push('?');
    else if (roll < 0.4) parts.push(pick(random, ['[a-c]', '[1-9]', '[b9]', '[!a]', '[A-Z]']));
    else if (roll < 0.45) parts.push(pick(random, ['\\#', '\\!', '\\ ']));
    else parts.push(pick(random, ALPHABET.filter((c) => c !== '#' || i > 0)));
  }
  let pattern = parts.join('');
  if (random() < 0.15) pattern = `!${pattern}`;
  if (random() < 0.1) pattern = `${pattern}/`;
  if (random() < 0.1) pattern = `sub/${pattern}`;
  return pattern.trim() === '' || pattern === '!' ? 'a*' : pattern;
}

function randomName(random: () => number): string {
  const length = 1 + Math.floor(random() * 7);
  const name = Array.from({ length }, () => pick(random, ALPHABET)).join('').trim();
  // What a folder can hold: never '', '.' or '..'.
  return name === '' || name === '.' || name === '..' ? 'a' : name;
}

describe('a pattern set that asks only the patterns a name can match', () => {
  it('answers as the whole set does (ignored or not, the rule named) on random patterns and names', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seededRandom(seed);
      const patterns = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, line) => ({ pattern: randomPattern(random), mark: String(line + 1) }));
      const set = new PatternSet(patterns);
      const whole = ignore().add(patterns);
      for (let i = 0; i < 300; i++) {
        const name = randomName(random);
        const path = pick(random, [name, `d/${name}`, `sub/${name}`, `d/${name}/`]);
        if (!ignore.isPathValid(path)) continue;
        const expected = whole.test(path);
        const got = set.test(path);
        // `unignored` is the library's word on the name itself: compared where the path is one.
        const unignored = (result: { unignored: boolean }) => (path.includes('/') ? null : result.unignored);
        expect({ seed, patterns: patterns.map((p) => p.pattern), path, ignored: got.ignored, unignored: unignored(got), mark: got.rule?.mark })
          .toEqual({ seed, patterns: patterns.map((p) => p.pattern), path, ignored: expected.ignored, unignored: unignored(expected), mark: expected.rule?.mark });
      }
    }
  });

  it('answers as the whole built-in list does on every example it lists', () => {
    const patterns = BUILT_IN_RULES.flatMap((rule) => rule.patterns.map((pattern) => ({ pattern, mark: rule.id })));
    const set = new PatternSet(patterns);
    const whole = ignore().add(patterns);
    for (const name of BUILT_IN_RULES.flatMap((rule) => [...rule.examples.ignored, ...rule.examples.kept])) {
      expect([name, set.test(name).rule?.mark]).toEqual([name, whole.test(name).rule?.mark]);
    }
  });
});
