import ignore, { type Ignore } from 'ignore';

type TestResult = ReturnType<Ignore['test']>;

/** A gitignore pattern with what it is marked with (a built-in entry's id, an ignore file's line number). */
export interface MarkedPattern {
  pattern: string;
  mark: string;
}

/** Whether a character may be the one at a pattern's end (case-insensitively); null: any may. */
type CharTest = ((char: string) => boolean) | null;

const ANY: { first: CharTest; last: CharTest } = { first: null, last: null };
const NOTHING_RESULT: TestResult = { ignored: false, unignored: false };

/** A character set `[…]` read from `body` at `open`: its test and the index after its `]`, or null when it is not plain. */
function charClass(body: string, open: number): { test: (char: string) => boolean; end: number } | null {
  const close = body.indexOf(']', open + 2);
  if (close === -1) return null;
  const inside = body.slice(open + 1, close);
  if (inside.startsWith('!') || inside.startsWith('^') || inside.includes('\\') || inside.includes('[')) return null;
  const ranges: [string, string][] = [];
  for (let at = 0; at < inside.length; at++) {
    if (inside[at + 1] === '-' && at + 2 < inside.length) {
      ranges.push([inside[at]!, inside[at + 2]!]);
      at += 2;
    } else ranges.push([inside[at]!, inside[at]!]);
  }
  const test = (char: string) => [char.toLowerCase(), char.toUpperCase()].some((c) => ranges.some(([low, high]) => c >= low && c <= high));
  return { test, end: close + 1 };
}

/** A literal character's test: the same letter in either case. */
const literal = (char: string): CharTest => {
  const lower = char.toLowerCase();
  return (candidate) => candidate.toLowerCase() === lower;
};

/**
 * What the first and last character of a file name must be for `pattern` to match it, over-approximated (a test that
 * says yes when unsure): only a pattern of one name (no `/` but a trailing one) is narrowed; every other may match any.
 */
function endsOf(raw: string): { first: CharTest; last: CharTest } {
  let body = raw.startsWith('!') ? raw.slice(1) : raw;
  // Trailing spaces are not part of a pattern unless escaped (git's rule, which the library follows).
  while (body.endsWith(' ') && !body.endsWith('\\ ')) body = body.slice(0, -1);
  if (body.endsWith('/')) body = body.slice(0, -1);
  if (body === '' || body.includes('/') || body.includes('**')) return ANY;
  let first: CharTest = null;
  if (body.startsWith('\\') && body.length > 1) first = literal(body[1]!);
  else if (body.startsWith('[')) first = charClass(body, 0)?.test ?? null;
  else if (body[0] !== '*' && body[0] !== '?') first = literal(body[0]!);
  let last: CharTest = null;
  const end = body[body.length - 1]!;
  if (end === ']') {
    const open = body.lastIndexOf('[');
    const set = open >= 0 ? charClass(body, open) : null;
    last = set && set.end === body.length ? set.test : null;
  } else if (end !== '*' && end !== '?' && end !== '\\' && body[body.length - 2] !== '\\') last = literal(end);
  return { first, last };
}

/**
 * A set of gitignore patterns (the `ignore` library, as git reads them) that answers for a file by asking only the
 * patterns that can match its name: those whose first and last characters admit the name's, grouped by the pair. A
 * scan of 100,000 files asks the built-in list's ~70 patterns of each; most names (`part-12.stl`) leave a handful.
 *
 * A pattern without a `/` (but a trailing one) matches a name at any depth, so those are asked of the file's name
 * alone, after its folder was asked of the whole set (a file is held back with its folder). A set with a pattern of
 * several names (`sub/*.stl`), and folders, are asked whole. Whether a path is ignored, and the rule named, are as the
 * whole set says; `unignored` is what the library says of the name itself.
 *
 * The library keeps every path it was asked of: make one per scan, not one for the life of the process.
 */
export class PatternSet {
  private readonly whole: Ignore;
  private readonly ends: { pattern: MarkedPattern; first: CharTest; last: CharTest }[];
  /** Some pattern spans several names: every path is asked of the whole set. */
  private readonly spansFolders: boolean;
  private readonly byEnds = new Map<string, Ignore | null>();

  constructor(readonly patterns: readonly MarkedPattern[]) {
    this.whole = ignore().add(patterns.map(({ pattern, mark }) => ({ pattern, mark })));
    this.ends = patterns.map((pattern) => ({ pattern, ...endsOf(pattern.pattern) }));
    this.spansFolders = patterns.some(({ pattern }) => spansFolders(pattern));
  }

  /** What the `ignore` library says of `path` (relative, '/' between names, a folder's ending with '/'). */
  test(path: string): TestResult {
    if (path.endsWith('/') || this.spansFolders) return this.whole.test(path);
    const slash = path.lastIndexOf('/');
    if (slash > 0) {
      const folder = this.whole.test(path.slice(0, slash + 1));
      if (folder.ignored) return folder;
    }
    const name = path.slice(slash + 1);
    const first = name[0] ?? '';
    const last = name[name.length - 1] ?? '';
    const key = `${first}\u0000${last}`;
    let subset = this.byEnds.get(key);
    if (subset === undefined) {
      const chosen = this.ends.filter((end) => (end.first === null || end.first(first)) && (end.last === null || end.last(last)));
      subset = chosen.length === 0 ? null : ignore().add(chosen.map(({ pattern }) => ({ pattern: pattern.pattern, mark: pattern.mark })));
      this.byEnds.set(key, subset);
    }
    return subset ? subset.test(name) : NOTHING_RESULT;
  }
}

/** Whether a pattern names more than one level (`sub/x`, `/x`, `a/**`): it is not matched against a name alone. */
function spansFolders(raw: string): boolean {
  const body = (raw.startsWith('!') ? raw.slice(1) : raw).replace(/\/$/, '');
  return body.includes('/') || body.includes('**');
}
