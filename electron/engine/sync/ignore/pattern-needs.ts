/**
 * What a path must hold for a gitignore pattern to match it, read from the pattern as the `ignore` library reads it:
 * a cheap test that may say "perhaps" of a path the pattern does not match, never "no" of one it does. Letters are
 * compared as the library compares them (case-insensitively, an ASCII letter only ever matching an ASCII letter), so
 * what is kept of a pattern is its ASCII characters; anything this reading is unsure of leaves the pattern unnarrowed.
 */

/** What the last name of a path must be (lower case; `exact` when the name must be `prefix` itself). */
export interface NameNeeds {
  exact: boolean;
  prefix: string;
  suffix: string;
  /** The characters the name can begin or end with (lower case), when a character set `[…]` says so; null: any. */
  first: string | null;
  last: string | null;
  /** No name shorter matches (the characters other than `*`). */
  minLength: number;
}

export interface PatternNeeds {
  /** `#…`: the library takes it for a comment; it never matches. */
  never: boolean;
  /** A trailing `/`: only a folder's path (ending with '/') matches. */
  folderOnly: boolean;
  /** Names (lower case) the path must hold, whole, somewhere along it: a pattern's literal folders (`cache/` of `**\/cache/**`). */
  names: string[];
  /** What the path's last name must be; null: any (a pattern ending with `**`, or one not read). */
  name: NameNeeds | null;
}

/** A pattern that may match any path. */
const ANYTHING: PatternNeeds = { never: false, folderOnly: false, names: [], name: null };

type Token = { kind: 'literal'; char: string } | { kind: 'star' } | { kind: 'one'; chars: string | null };

const isAscii = (char: string) => char.charCodeAt(0) < 0x80;
const ALNUM = /^[0-9A-Za-z]$/;
/** Digits, lower-case letters, upper-case letters: a range is read only between two of one kind. */
const kindOf = (char: string) => (char <= '9' ? 0 : char <= 'Z' ? 1 : 2);

/**
 * A plain character set `[…]` at `open` (ASCII letters and digits, ranges between two of one kind), as the lower-case
 * characters it admits, and the index after its `]`; `chars: null` for a set read no further (negated `[!…]`, escapes,
 * `[:digit:]`, other characters): it admits any one character. Null when the set is not closed (the library then
 * makes a pattern that matches nothing, which "anything" covers).
 */
function characterSet(body: string, open: number): { chars: string | null; end: number } | null {
  // The library takes the first character after `[` (or `[!`) as a member whatever it is, even `]`.
  let at = open + 1;
  if (body[at] === '!' || body[at] === '^') at++;
  const close = body.indexOf(']', at + 1);
  if (close === -1) return null;
  const inside = body.slice(open + 1, close);
  // An escaped `]` or a class `[:digit:]` ends the set at a later `]`: not read.
  if (inside.includes('\\') || inside.includes('[')) return null;
  const chars = new Set<string>();
  let plain = !inside.startsWith('!') && !inside.startsWith('^');
  for (let index = 0; plain && index < inside.length; index++) {
    const char = inside[index]!;
    if (!ALNUM.test(char)) plain = false;
    else if (inside[index + 1] === '-' && index + 2 < inside.length) {
      const to = inside[index + 2]!;
      if (!ALNUM.test(to) || kindOf(char) !== kindOf(to) || char > to) plain = false;
      else for (let code = char.charCodeAt(0); code <= to.charCodeAt(0); code++) chars.add(String.fromCharCode(code).toLowerCase());
      index += 2;
    } else chars.add(char.toLowerCase());
  }
  return { chars: plain ? [...chars].join('') : null, end: close + 1 };
}

/** A pattern's name (no `/`) as characters, `*` and single characters; null when it is not read. */
function tokens(segment: string): Token[] | null {
  const out: Token[] = [];
  for (let at = 0; at < segment.length; at++) {
    const char = segment[at]!;
    if (char === '\\') {
      const escaped = segment[at + 1];
      if (escaped === undefined) return null;
      out.push({ kind: 'literal', char: escaped });
      at++;
    } else if (char === '*') out.push({ kind: 'star' });
    else if (char === '?') out.push({ kind: 'one', chars: null });
    else if (char === '[') {
      const set = characterSet(segment, at);
      if (!set) return null;
      out.push({ kind: 'one', chars: set.chars });
      at = set.end - 1;
    } else out.push({ kind: 'literal', char });
  }
  return out;
}

/** The ASCII characters a run of tokens begins with (or ends with, read from the end), in lower case. */
function literalRun(list: readonly Token[], fromEnd: boolean): string {
  let run = '';
  for (let index = 0; index < list.length; index++) {
    const token = list[fromEnd ? list.length - 1 - index : index]!;
    if (token.kind !== 'literal' || !isAscii(token.char)) break;
    run = fromEnd ? token.char.toLowerCase() + run : run + token.char.toLowerCase();
  }
  return run;
}

/** The name a run of tokens stands for when it is ASCII characters alone (lower case), else null. */
function literalName(list: readonly Token[]): string | null {
  const run = literalRun(list, false);
  return run.length === list.length ? run : null;
}

function nameNeeds(list: readonly Token[]): NameNeeds {
  const prefix = literalRun(list, false);
  const suffix = literalRun(list, true);
  const exact = literalName(list) !== null;
  const firstToken = list[0];
  const lastToken = list[list.length - 1];
  return {
    exact,
    prefix,
    suffix,
    first: prefix === '' && firstToken?.kind === 'one' ? firstToken.chars : null,
    last: suffix === '' && lastToken?.kind === 'one' ? lastToken.chars : null,
    minLength: list.filter((token) => token.kind !== 'star').length,
  };
}

/** A name of a pattern that is a run of two or more `*` alone: any number of folders (git's `**`). */
const isGlobstar = (segment: string) => /^\*{2,}$/.test(segment);

/** What a path needs for `raw` (one line of gitignore, as given to the library) to match it. */
export function patternNeeds(raw: string): PatternNeeds {
  const body = raw.startsWith('!') ? raw.slice(1) : raw;
  // A comment, or nothing: the library makes no rule of it.
  if (raw.startsWith('#') || body === '') return { ...ANYTHING, never: true };
  // What the library trims or strips (trailing spaces and line ends, a byte-order mark), and an escaped `/`, are
  // left to it.
  if (/[ \r\n]$/.test(body) || body.includes('\uFEFF') || body.includes('\\/')) return ANYTHING;
  const folderOnly = body.endsWith('/');
  const trimmed = body.slice(body.startsWith('/') ? 1 : 0, folderOnly ? -1 : undefined);
  const segments = trimmed.split('/');
  if (segments.some((segment) => segment === '')) return ANYTHING;
  const read = segments.map((segment) => (isGlobstar(segment) && segments.length > 1 ? 'globstar' as const : tokens(segment)));
  if (read.some((list) => list === null)) return ANYTHING;
  // The names before the last are folders along the path (the last is the path's own name).
  const names = read.slice(0, -1).flatMap((list) => {
    const name = list === 'globstar' ? null : literalName(list!);
    return name === null ? [] : [name];
  });
  const last = read[read.length - 1]!;
  return {
    never: false,
    folderOnly,
    names,
    name: last === 'globstar' ? null : nameNeeds(last),
  };
}
