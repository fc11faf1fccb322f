import ignore, { type Ignore } from 'ignore';
import { patternNeeds, type PatternNeeds } from './pattern-needs';

type TestResult = ReturnType<Ignore['test']>;

/** A gitignore pattern with what it is marked with (a built-in entry's id, an ignore file's line number). */
export interface MarkedPattern {
  pattern: string;
  mark: string;
}

const NOTHING_RESULT: TestResult = Object.freeze({ ignored: false, unignored: false });

/** At most this many smaller sets are compiled for one set's paths; a path that would need another is asked of the whole set. */
const MAX_SUBSETS = 256;

/** Paths the library reads otherwise than as names between `/` (or refuses): asked of it as they are. */
const LIBRARY_PATHS = process.platform === 'win32' ? /\\|^[a-z]:/i : null;

interface Rule {
  index: number;
  needs: PatternNeeds;
}

/** What the set knows of a folder, for the paths inside it. */
interface FolderState {
  /** The patterns that may match the folder or a folder around it (ascending): those the library asks of the path's folders. */
  inherited: readonly number[];
  /** What the whole set says of the folder. */
  result: TestResult;
  /** The names along the folder's path, lower case. */
  names: ReadonlySet<string>;
  /** The patterns of several names one of whose literal folder names (`cache` of `**\/cache/**`) is along the path. */
  byFolderName: readonly Rule[];
}

/** The sync folder's own level (paths without a `/` but a trailing one). */
const TOP: FolderState = { inherited: [], result: NOTHING_RESULT, names: new Set(), byFolderName: [] };

/**
 * A set of gitignore patterns (the `ignore` library, as git reads them) that answers for a path as the whole set
 * does, asking only the patterns that can match it. Each pattern is read for what a path needs for it to match
 * (`pattern-needs.ts`: a literal name `Thumbs.db`, an ending `.tmp`, a beginning `~$`, a folder name `cache` along the
 * path); the patterns are filed by it, so that a file's name is held against the few that could take it, and a
 * folder's answer is kept for the files in it. A scan of 100,000 files asks the built-in list's ~70 patterns and a
 * person's 100-line ignore file of each; most names (`part-12.stl`) leave none.
 *
 * The answer is the library's own: a path with patterns left is asked of a set of those patterns and of those that
 * may match a folder around it (the library asks its folders first: a file is held back with its folder), in their
 * order, so that the last pattern that matches is the one named, and a `!` pattern still un-ignores.
 *
 * The library keeps every path it was asked of, and this set every folder's answer: make one per scan, not one for the
 * life of the process.
 */
export class PatternSet {
  private wholeSet: Ignore | null = null;
  private readonly byName = new Map<string, Rule[]>();
  private readonly byFirst = new Map<string, Rule[]>();
  private readonly byLast = new Map<string, Rule[]>();
  private readonly byFolderName = new Map<string, Rule[]>();
  private readonly always: Rule[] = [];
  private readonly folders = new Map<string, FolderState>();
  private readonly subsets = new Map<string, Ignore>();

  constructor(readonly patterns: readonly MarkedPattern[]) {
    patterns.forEach(({ pattern }, index) => this.file({ index, needs: patternNeeds(pattern) }));
  }

  /** What the `ignore` library says of `path` (relative, '/' between names, a folder's ending with '/'). */
  test(path: string): TestResult {
    if (path === '' || path.startsWith('/') || (path.startsWith('.') && /^\.\.?(\/|$)/.test(path)) || path.includes('//') || LIBRARY_PATHS?.test(path)) return this.whole().test(path);
    if (path.endsWith('/')) return this.folder(path).result;
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? TOP : this.folder(path.slice(0, slash + 1));
    if (folder.result.ignored) return folder.result;
    const own = this.candidates(path.slice(slash + 1), false, folder);
    return own.length === 0 ? NOTHING_RESULT : this.subset(merged(folder.inherited, own)).test(path);
  }

  /** A folder's state (`path` ending with '/'), made from its parent's the first time it is asked. */
  private folder(path: string): FolderState {
    const known = this.folders.get(path);
    if (known) return known;
    const slash = path.lastIndexOf('/', path.length - 2);
    const parent = slash === -1 ? TOP : this.folder(path.slice(0, slash + 1));
    const name = path.slice(slash + 1, -1);
    const lower = name.toLowerCase();
    const own = this.candidates(name, true, parent);
    const inherited = own.length === 0 ? parent.inherited : merged(parent.inherited, own);
    let result: TestResult;
    if (parent.result.ignored) result = parent.result;
    else result = own.length === 0 ? NOTHING_RESULT : this.subset(inherited).test(path);
    const spanning = this.byFolderName.get(lower);
    const state: FolderState = {
      inherited,
      result,
      names: new Set(parent.names).add(lower),
      byFolderName: spanning ? [...parent.byFolderName, ...spanning.filter((rule) => !parent.byFolderName.includes(rule))] : parent.byFolderName,
    };
    this.folders.set(path, state);
    return state;
  }

  /** The patterns (indices, ascending) that may match a path whose last name is `name`, in `folder`. */
  private candidates(name: string, isFolder: boolean, folder: FolderState): number[] {
    const lower = name.toLowerCase();
    const found: number[] = [];
    collect(found, this.byName.get(lower), name, lower, isFolder, folder);
    collect(found, this.byFirst.get(lower[0]!), name, lower, isFolder, folder);
    collect(found, this.byLast.get(lower[lower.length - 1]!), name, lower, isFolder, folder);
    collect(found, this.always, name, lower, isFolder, folder);
    collect(found, folder.byFolderName, name, lower, isFolder, folder);
    return found.length > 1 ? found.sort((a, b) => a - b) : found;
  }

  /** Files a pattern under what a path needs for it to match: the most telling need. */
  private file(rule: Rule): void {
    const { needs } = rule;
    if (needs.never) return;
    const add = (map: Map<string, Rule[]>, key: string) => {
      const list = map.get(key);
      if (list) list.push(rule);
      else map.set(key, [rule]);
    };
    const name = needs.name;
    if (needs.names.length > 0) add(this.byFolderName, needs.names.reduce((a, b) => (b.length > a.length ? b : a)));
    else if (name?.exact) add(this.byName, name.prefix);
    else if (name && name.suffix !== '') add(this.byLast, name.suffix[name.suffix.length - 1]!);
    else if (name && name.prefix !== '') add(this.byFirst, name.prefix[0]!);
    else if (name?.last) for (const char of name.last) add(this.byLast, char);
    else if (name?.first) for (const char of name.first) add(this.byFirst, char);
    else this.always.push(rule);
  }

  /** The library's set of the patterns at `indices` (ascending), compiled once. */
  private subset(indices: readonly number[]): Ignore {
    const key = indices.join(',');
    let set = this.subsets.get(key);
    if (!set) {
      if (this.subsets.size >= MAX_SUBSETS) return this.whole();
      set = ignore().add(indices.map((index) => ({ pattern: this.patterns[index]!.pattern, mark: this.patterns[index]!.mark })));
      this.subsets.set(key, set);
    }
    return set;
  }

  private whole(): Ignore {
    return (this.wholeSet ??= ignore().add(this.patterns.map(({ pattern, mark }) => ({ pattern, mark }))));
  }
}

/** Adds to `found` the indices of the `rules` a path whose last name is `name` in `folder` may match. */
function collect(found: number[], rules: readonly Rule[] | undefined, name: string, lower: string, isFolder: boolean, folder: FolderState): void {
  if (rules) for (const rule of rules) if (admits(rule.needs, name, lower, isFolder, folder)) found.push(rule.index);
}

/** Whether a path whose last name is `name` (`lower` in lower case) in `folder` may match a pattern of these needs. */
function admits(needs: PatternNeeds, name: string, lower: string, isFolder: boolean, folder: FolderState): boolean {
  if (needs.folderOnly && !isFolder) return false;
  for (const needed of needs.names) if (!folder.names.has(needed) && needed !== lower) return false;
  const want = needs.name;
  if (!want) return true;
  if (want.exact) return lower === want.prefix;
  if (name.length < want.minLength || !lower.startsWith(want.prefix) || !lower.endsWith(want.suffix)) return false;
  if (want.first !== null && !want.first.includes(lower[0]!)) return false;
  return want.last === null || want.last.includes(lower[lower.length - 1]!);
}

/** Two ascending lists of indices as one, without repeats. */
function merged(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 0) return b as number[];
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}
