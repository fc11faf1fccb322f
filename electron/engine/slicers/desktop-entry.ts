/**
 * Desktop entries (freedesktop.org's Desktop Entry Specification 1.5): the `[Desktop Entry]` group of a `.desktop`
 * file read strictly, and its Exec key taken apart into arguments and field codes as the specification's quoting
 * rules say. No shell is ever involved: an entry's program runs with the arguments it names, the file added by its
 * field code.
 */

/** A desktop entry that cannot be used, and why (in words for the engine log). */
export class DesktopEntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DesktopEntryError';
  }
}

/** The keys of the `[Desktop Entry]` group (localized keys such as `Name[de]` are kept under their own names). */
export type DesktopEntryKeys = ReadonlyMap<string, string>;

/** The specification's escapes of a string value: \s \n \t \r \\ (any other backslash is kept as it is). */
export function unescapeValue(raw: string): string {
  return raw.replace(/\\([sntr\\])/g, (_match, code: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' })[code]!);
}

/** A list value (MimeType, Categories): separated by ';' (escaped as '\;'), the last one optional. */
export function listValue(raw: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '\\' && raw[i + 1] === ';') {
      current += ';';
      i++;
    } else if (char === ';') {
      items.push(current);
      current = '';
    } else current += char;
  }
  if (current !== '') items.push(current);
  return items.map((item) => unescapeValue(item).trim()).filter((item) => item !== '');
}

/** A boolean value: only `true` and `false` are booleans; anything else makes the entry unusable. */
export function booleanValue(keys: DesktopEntryKeys, key: string): boolean {
  const value = keys.get(key);
  if (value === undefined) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new DesktopEntryError(`${key}=${JSON.stringify(value)} is not a boolean (true or false)`);
}

/** A desktop file's `[Desktop Entry]` group and its `[Desktop Action <id>]` groups (by id). */
export interface DesktopFile {
  entry: DesktopEntryKeys;
  actions: ReadonlyMap<string, DesktopEntryKeys>;
}

/**
 * A desktop file's text read strictly: comments and blank lines skipped; the first group must be `[Desktop Entry]`;
 * a line that is neither a group, a key nor a comment, a key given twice in a group, or a group given twice is
 * refused with the line it stopped at. Groups other than the entry and its actions are read over.
 */
export function parseDesktopFile(text: string): DesktopFile {
  const entry = new Map<string, string>();
  const actions = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  let seenEntryGroup = false;
  const seenGroups = new Set<string>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const where = `line ${index + 1}`;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const header = /^\[([^[\]\x00-\x1f]+)\]\s*$/.exec(line);
    if (header) {
      const group = header[1]!;
      if (seenGroups.has(group)) throw new DesktopEntryError(`${where}: a second [${group}] group`);
      seenGroups.add(group);
      if (group === 'Desktop Entry') {
        seenEntryGroup = true;
        current = entry;
      } else if (!seenEntryGroup) throw new DesktopEntryError(`${where}: the first group is [${group}], not [Desktop Entry]`);
      else if (group.startsWith('Desktop Action ')) {
        current = new Map();
        actions.set(group.slice('Desktop Action '.length), current);
      } else current = new Map();
      continue;
    }
    const pair = /^([A-Za-z0-9-]+(?:\[[^\]]+\])?)\s*=\s*(.*)$/.exec(line);
    if (!pair) throw new DesktopEntryError(`${where}: ${JSON.stringify(line.slice(0, 80))} is neither a group, a key nor a comment`);
    if (current === null) throw new DesktopEntryError(`${where}: a key before any group`);
    const [, key, value] = pair as unknown as [string, string, string];
    if (current.has(key)) throw new DesktopEntryError(`${where}: the key ${key} is given twice`);
    current.set(key, value);
  }
  if (!seenEntryGroup) throw new DesktopEntryError('there is no [Desktop Entry] group');
  return { entry, actions };
}

/** The `[Desktop Entry]` group of a desktop file's text (parseDesktopFile's rules). */
export function parseDesktopEntry(text: string): DesktopEntryKeys {
  return parseDesktopFile(text).entry;
}

/** One argument of an Exec line: literal text, or a field code that the file (or the entry) replaces. */
export type ExecPart =
  | { kind: 'text'; text: string }
  /** %f or %u inside an argument ("--file=%f" is one argument); %F or %U always stand alone. */
  | { kind: 'arg-with-file'; before: string; after: string }
  | { kind: 'files' }
  | { kind: 'icon' }
  | { kind: 'name' }
  | { kind: 'location' };

/** Characters the specification reserves: an argument that holds one must be quoted. */
const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

/**
 * An Exec value (its string escapes already undone) taken apart as the specification says: arguments separated by
 * spaces, an argument quoted whole in double quotes with \" \` \$ \\ escaped inside; field codes only outside quotes
 * (%f %u %F %U for the file, %i %c %k for the entry, %% for a percent sign; the deprecated %d %D %n %N %v %m dropped).
 * Refused: an unterminated quote, a quote in the middle of an argument, an unknown escape or field code, a reserved
 * character outside quotes, a field code inside quotes, more than one file field code, or none (it cannot open a file).
 */
export function parseExec(exec: string): ExecPart[][] {
  const args: ExecPart[][] = [];
  let fileCodes = 0;
  let i = 0;
  const fail = (why: string) => new DesktopEntryError(`Exec=${JSON.stringify(exec.slice(0, 120))}: ${why}`);
  while (i < exec.length) {
    if (exec[i] === ' ' || exec[i] === '\t') {
      i++;
      continue;
    }
    if (exec[i] === '"') {
      let text = '';
      i++;
      for (;;) {
        if (i >= exec.length) throw fail('a quote is not closed');
        const char = exec[i]!;
        if (char === '"') break;
        if (char === '\\') {
          const next = exec[i + 1];
          if (next === undefined || !'"`$\\'.includes(next)) throw fail(`\\${next ?? ''} is not an escape a quoted argument may hold`);
          text += next;
          i += 2;
          continue;
        }
        if (char === '%' && exec[i + 1] !== '%' && exec[i + 1] !== undefined) throw fail('a field code inside a quoted argument');
        if (char === '%' && exec[i + 1] === '%') i++;
        text += char;
        i++;
      }
      i++;
      if (i < exec.length && exec[i] !== ' ' && exec[i] !== '\t') throw fail('a quoted argument must be quoted whole');
      args.push([{ kind: 'text', text }]);
      continue;
    }
    let end = i;
    while (end < exec.length && exec[end] !== ' ' && exec[end] !== '\t') end++;
    const word = exec.slice(i, end);
    i = end;
    const parts: ExecPart[] = [];
    let text = '';
    let fileAt: number | null = null;
    for (let j = 0; j < word.length; j++) {
      const char = word[j]!;
      if (char !== '%') {
        if (RESERVED.test(char)) throw fail(`${JSON.stringify(char)} must be in a quoted argument`);
        text += char;
        continue;
      }
      const code = word[j + 1];
      j++;
      if (code === '%') text += '%';
      else if (code === 'f' || code === 'u') {
        if (fileAt !== null) throw fail('two file field codes in one argument');
        fileAt = text.length;
        fileCodes++;
      } else if (code === 'F' || code === 'U') {
        if (word.length !== 2) throw fail(`%${code} must stand alone as an argument`);
        parts.push({ kind: 'files' });
        fileCodes++;
      } else if (code === 'i' || code === 'c' || code === 'k') {
        if (word.length !== 2) throw fail(`%${code} must stand alone as an argument`);
        parts.push({ kind: code === 'i' ? 'icon' : code === 'c' ? 'name' : 'location' });
      } else if (code !== undefined && 'dDnNvm'.includes(code)) {
        // Deprecated: removed from the command line.
      } else throw fail(`%${code ?? ''} is not a field code`);
    }
    if (parts.length > 0) args.push(parts);
    else if (fileAt !== null) args.push([{ kind: 'arg-with-file', before: text.slice(0, fileAt), after: text.slice(fileAt) }]);
    else if (text !== '' || word.length === 0) args.push([{ kind: 'text', text }]);
  }
  if (args.length === 0) throw fail('it names no program');
  if (fileCodes === 0) throw fail('it takes no file (no %f, %F, %u or %U)');
  if (fileCodes > 1) throw fail('more than one file field code');
  if (args[0]!.some((part) => part.kind !== 'text')) throw fail('its program is a field code');
  return args;
}

/** What the entry's own field codes stand for. */
export interface ExecContext {
  icon?: string | undefined;
  name?: string | undefined;
  /** The desktop file's path (%k). */
  location?: string | undefined;
}

/**
 * The command line that opens `file`: the Exec arguments with the file put where its field code is (a local path,
 * which the specification allows for %u and %U too), %i as `--icon <Icon>` (nothing without an icon), %c the name,
 * %k the desktop file.
 */
export function expandExec(args: ExecPart[][], file: string, context: ExecContext = {}): string[] {
  const argv: string[] = [];
  for (const parts of args) {
    for (const part of parts) {
      if (part.kind === 'text') argv.push(part.text);
      else if (part.kind === 'arg-with-file') argv.push(`${part.before}${file}${part.after}`);
      else if (part.kind === 'files') argv.push(file);
      else if (part.kind === 'icon') {
        if (context.icon) argv.push('--icon', context.icon);
      } else if (part.kind === 'name') {
        if (context.name) argv.push(context.name);
      } else if (context.location) argv.push(context.location);
    }
  }
  return argv;
}
