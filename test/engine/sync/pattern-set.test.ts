import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_RULES } from '../../../electron/engine/sync/ignore/built-in-rules';
import { PatternSet, type MarkedPattern } from '../../../electron/engine/sync/ignore/pattern-set';
import { seededRandom } from '../../../service/seed/seeded-random';

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/**
 * Characters of names and patterns: letters in both cases, ones the library escapes or reads (`.`, `$`, `#`, `!`,
 * `]`), a space, letters beyond ASCII whose case folds in odd ways (é/É, the Kelvin sign, the long s, dotted İ, ς/σ).
 */
const CHARS = ['a', 'b', 'B', 'z', 'k', 's', 'i', '1', '9', '.', '-', '_', '~', '#', '$', '!', ']', '@', ' ', 'é', 'É', '\u212a', 'ſ', 'İ', 'ς', 'σ'];
/** Names that both the patterns and the paths are made of often, so that many paths match. */
const WORDS = ['a', 'ab', 'A.b', 'cache', 'Cache-1', 'cache-12', 'sub', 'x.tmp', 'X.TMP', 'part-3.stl', 'design-1', '#a#', 'a.blend1', 'k', 'ſ', 'é'];
const CLASSES = ['[a-c]', '[1-9]', '[b9]', '[!a]', '[^a]', '[A-Z]', '[z-a]', '[]a]', '[[:digit:]]', '[a-]', '[\\]]', '[é]', '[a-c-e]', '[.]', '[k]', '[s]'];
const ESCAPES = ['\\#', '\\!', '\\ ', '\\*', '\\?', '\\[', '\\\\', '\\a', '\\d'];

/** One name of a pattern: characters, `*`, `?`, sets, escapes, or a word whole. */
function randomPatternName(random: Random): string {
  if (random() < 0.3) return pick(random, WORDS);
  if (random() < 0.1) return pick(random, ['**', '***']);
  let name = '';
  const length = 1 + Math.floor(random() * 5);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.2) name += '*';
    else if (roll < 0.28) name += '?';
    else if (roll < 0.38) name += pick(random, CLASSES);
    else if (roll < 0.45) name += pick(random, ESCAPES);
    else if (roll < 0.6) name += pick(random, WORDS);
    else name += pick(random, CHARS);
  }
  return name;
}

/** A random gitignore line: one name or several, anchored `/x`, `**` folders, `!` negations, trailing `/`, comments. */
function randomPattern(random: Random): string {
  const names = Array.from({ length: 1 + Math.floor(random() * (random() < 0.5 ? 1 : 3)) }, () => randomPatternName(random));
  let pattern = names.join('/');
  if (random() < 0.1) pattern = `/${pattern}`;
  if (random() < 0.1) pattern = `**/${pattern}`;
  if (random() < 0.1) pattern = `${pattern}/**`;
  if (random() < 0.15) pattern = `${pattern}/`;
  if (random() < 0.2) pattern = `!${pattern}`;
  if (random() < 0.03) pattern = `#${pattern}`;
  if (random() < 0.03) pattern = `${pattern}  `;
  return pattern;
}

function randomName(random: Random): string {
  if (random() < 0.5) return pick(random, WORDS);
  const length = 1 + Math.floor(random() * 6);
  const name = Array.from({ length }, () => pick(random, [...CHARS, '*', '?', '['])).join('');
  return name.trim() === '' || name === '.' || name === '..' ? 'a' : name;
}

/** A path of one to four names, a folder's ending with '/'. */
function randomPath(random: Random): string {
  const names = Array.from({ length: 1 + Math.floor(random() * 4) }, () => randomName(random));
  return `${names.join('/')}${random() < 0.25 ? '/' : ''}`;
}

/** What is compared: the whole answer, and the rule named by its pattern and mark. */
const answer = (result: ReturnType<PatternSet['test']>) => ({ ignored: result.ignored, unignored: result.unignored, pattern: result.rule?.pattern, mark: result.rule?.mark });

/** Asks every path of `paths` of a set of `patterns` and of the library's whole set, and returns what differs. */
function differences(patterns: readonly MarkedPattern[], paths: readonly string[]) {
  const set = new PatternSet(patterns);
  const whole = ignore().add(patterns.map(({ pattern, mark }) => ({ pattern, mark })));
  const differ: { path: string; got: ReturnType<typeof answer>; expected: ReturnType<typeof answer> }[] = [];
  let ignored = 0;
  let unignored = 0;
  for (const path of paths) {
    const expected = answer(whole.test(path));
    const got = answer(set.test(path));
    if (expected.ignored) ignored++;
    if (expected.unignored) unignored++;
    if (JSON.stringify(got) !== JSON.stringify(expected)) differ.push({ path, got, expected });
  }
  return { differ, ignored, unignored };
}

describe('a pattern set that asks only the patterns a path can match', () => {
  it('answers as the library does (ignored, un-ignored, the rule named) on random patterns and paths', () => {
    let ignored = 0;
    let unignored = 0;
    let asked = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const patterns = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, line) => ({ pattern: randomPattern(random), mark: String(line + 1) }));
      // Folders asked before, after or without the files in them: the set's answer never depends on what it was asked before.
      const paths = Array.from({ length: 200 }, () => randomPath(random)).filter((path) => ignore.isPathValid(path));
      const found = differences(patterns, paths);
      expect({ seed, patterns: patterns.map((p) => p.pattern), differ: found.differ.slice(0, 3) }).toEqual({ seed, patterns: patterns.map((p) => p.pattern), differ: [] });
      ignored += found.ignored;
      unignored += found.unignored;
      asked += paths.length;
    }
    // The comparison means something only if many paths are held back, and some un-ignored by a `!` pattern.
    expect(ignored / asked).toBeGreaterThan(0.2);
    expect(unignored / asked).toBeGreaterThan(0.02);
  });

  it('answers as the library does for a path whose folder a pattern ignores and a later one un-ignores', () => {
    const patterns = [{ pattern: 'des*', mark: '1' }, { pattern: '!design-1/', mark: '2' }, { pattern: 'x*', mark: '3' }, { pattern: '!x.stl', mark: '4' }];
    const paths = ['design-1/', 'design-1/part.stl', 'design-2/part.stl', 'design-1/desk.stl', 'design-1/x.stl', 'design-1/xy.stl', 'design-1/sub/x.stl', 'other/design-1/a', 'x/design-1/'];
    expect(differences(patterns, paths).differ).toEqual([]);
    const set = new PatternSet(patterns);
    expect(answer(set.test('design-2/part.stl'))).toEqual({ ignored: true, unignored: false, pattern: 'des*', mark: '1' });
    expect(answer(set.test('design-1/part.stl'))).toEqual({ ignored: false, unignored: false, pattern: undefined, mark: undefined });
    expect(answer(set.test('design-1/desk.stl'))).toEqual({ ignored: true, unignored: false, pattern: 'des*', mark: '1' });
    expect(answer(set.test('design-1/x.stl'))).toEqual({ ignored: false, unignored: true, pattern: undefined, mark: undefined });
    // `d9` begins as `d[a-z]*` would have it but is not matched: the folder it ignores, un-ignored, does not hold it back.
    const narrow = new PatternSet([{ pattern: 'd[a-z]*', mark: '1' }, { pattern: '!design-1/', mark: '2' }]);
    expect(answer(narrow.test('design-1/d9'))).toEqual({ ignored: false, unignored: false, pattern: undefined, mark: undefined });
    expect(answer(narrow.test('design-2/d9'))).toEqual({ ignored: true, unignored: false, pattern: 'd[a-z]*', mark: '1' });
  });

  it('answers as the library does for patterns across folders and a deep tree of files', () => {
    const patterns = ['*.tmp', '**/cache-1/**', 'sub/*.stl', '/top.txt', 'build/', 'a/**/b', '!**/cache-1/keep.stl', 'render_1_*.png', '[Dd]raft-*.stl', 'cache-1/']
      .map((pattern, index) => ({ pattern, mark: String(index + 1) }));
    const paths: string[] = [];
    for (const top of ['design-1', 'sub', 'a', 'build', 'Cache-1']) {
      for (const middle of ['', 'cache-1/', 'sub/', 'b/', 'x/b/', 'build/']) {
        paths.push(`${top}/${middle}`);
        for (const name of ['part.stl', 'x.tmp', 'keep.stl', 'top.txt', 'b', 'render_1_a.png', 'Draft-2.stl', 'draft-2.STL', 'cache-1']) paths.push(`${top}/${middle}${name}`);
      }
    }
    paths.push('top.txt', 'x/top.txt', 'b', 'a/b');
    const found = differences(patterns, paths);
    expect(found.differ).toEqual([]);
    expect(found.ignored).toBeGreaterThan(100);
  });

  it('answers as the library does for the built-in list, on every example it lists and on random paths', () => {
    const patterns = BUILT_IN_RULES.flatMap((rule) => rule.patterns.map((pattern) => ({ pattern, mark: rule.id })));
    const examples = BUILT_IN_RULES.flatMap((rule) => [...rule.examples.ignored, ...rule.examples.kept]);
    const random = seededRandom(7);
    const paths = [...examples, ...examples.map((example) => `design-1/${example}`), ...Array.from({ length: 3000 }, () => `d/${randomName(random)}${random() < 0.5 ? `.${pick(random, ['tmp', 'blend1', 'FCStd12', 'part', 'bak', 'sw' + pick(random, CHARS)])}` : ''}`)];
    const found = differences(patterns, paths.filter((path) => ignore.isPathValid(path)));
    expect(found.differ).toEqual([]);
    expect(found.ignored).toBeGreaterThan(500);
  });

  it('refuses a path that is not relative as the library does', () => {
    const set = new PatternSet([{ pattern: '*.tmp', mark: '1' }]);
    for (const path of ['', '/x.tmp', './x.tmp', '../x.tmp']) expect(() => set.test(path), path).toThrow();
  });
});
