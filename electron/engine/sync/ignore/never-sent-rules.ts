import type { HoldReasonView } from '../../../../shared';
import type { EngineWords } from '../../../../shared/i18n/engine-words';
import { englishOf } from '../../../../shared/i18n/worded-error';
import { BUILT_IN_RULES, type BuiltInRule } from './built-in-rules';
import { PatternSet, type MarkedPattern } from './pattern-set';

/** The file people edit, in the sync folder (for every design) or in one design's folder (for that design). */
export const IGNORE_FILE = '.designsyncignore';
/** Larger than this, an ignore file is refused: it is a list of patterns, not a document. */
export const MAX_IGNORE_FILE_BYTES = 64 * 1024;
const MAX_LINE = 1000;

/**
 * Names starting with a dot are never sent, whatever tool wrote them (.x.swp, .~lock.x#, sync's own files): the entry
 * named only when no more specific one matches.
 */
export const HIDDEN_FILES_RULE: BuiltInRule = {
  id: 'hidden',
  tool: 'Any program',
  label: 'hidden files',
  patterns: ['.*'],
  source: 'https://en.wikipedia.org/wiki/Hidden_file_and_hidden_directory',
  examples: { ignored: ['.DS_Store', '.x.swp'], kept: ['part.stl'] },
};

/** Why a file or folder is never sent: an entry of the built-in list, or a line of an ignore file. */
export type HoldReason = HoldReasonView;

/** One pattern line of an ignore file, with its line number (1-based). */
export interface IgnoreLine {
  line: number;
  pattern: string;
}

/** A line of an ignore file that cannot be taken, and why: in English, and as facts a front end words. */
export interface IgnoreLineProblem {
  line: number;
  problem: string;
  words: EngineWords;
}

function lineProblem(line: number, words: EngineWords): IgnoreLineProblem {
  return { line, problem: englishOf(words), words };
}

/**
 * The pattern lines of an ignore file's text (gitignore syntax: blank lines and `#` comments skipped), and the lines
 * refused: a backslash between names (a Windows path: patterns use `/`), a line longer than 1,000 characters.
 */
export function parseIgnoreText(text: string): { lines: IgnoreLine[]; problems: IgnoreLineProblem[] } {
  const lines: IgnoreLine[] = [];
  const problems: IgnoreLineProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    // Trailing spaces are not part of a pattern unless escaped (git's rule); a leading one is.
    const pattern = raw.replace(/(?<!\\)\s+$/, '');
    if (pattern === '' || pattern.startsWith('#')) return;
    if (pattern.length > MAX_LINE) problems.push(lineProblem(line, { id: 'ignore.problem.lineTooLong', values: { max: MAX_LINE } }));
    else if (/\\(?![\\ !#*?[\]])/.test(pattern)) problems.push(lineProblem(line, { id: 'ignore.problem.backslash', values: { pattern } }));
    else if (pattern === '!' || pattern === '/') problems.push(lineProblem(line, { id: 'ignore.problem.matchesNothing', values: { pattern } }));
    else lines.push({ line, pattern });
  });
  return { lines, problems };
}

const builtIns: readonly BuiltInRule[] = [HIDDEN_FILES_RULE, ...BUILT_IN_RULES];
const builtInById = new Map(builtIns.map((rule) => [rule.id, rule]));

/**
 * The built-in list's patterns, each marked with its entry's id. `ignore` names the last pattern that matches: the list
 * is given from its end, so that of two entries that match (Bambu Studio's `*.3mf.tmp` and the generic `*.tmp`), the
 * one listed first, the more specific, is the one named; the hidden-files entry comes before all.
 */
const BUILT_IN_PATTERNS: readonly MarkedPattern[] = [HIDDEN_FILES_RULE, ...[...BUILT_IN_RULES].reverse()]
  .flatMap((rule) => rule.patterns.map((pattern) => ({ pattern, mark: rule.id })));

/** The built-in list, compiled: one per scan (the matcher keeps every path it was asked of). */
export function builtInPatterns(): PatternSet {
  return new PatternSet(BUILT_IN_PATTERNS);
}

/** For single questions (`design-sync ignore check`): a scan makes its own. */
let sharedBuiltIn: PatternSet | null = null;

/** The entries of the built-in list, the generic one first (what the window and `design-sync ignore` show). */
export function builtInRules(): readonly BuiltInRule[] {
  return builtIns;
}

/** The patterns of one ignore file, compiled, with the file's path relative to the sync folder. */
export interface CompiledIgnoreFile {
  file: string;
  matcher: PatternSet;
}

/** An ignore file's lines compiled; each pattern marked with its line number. */
export function compileIgnoreFile(file: string, lines: readonly IgnoreLine[]): CompiledIgnoreFile {
  return { file, matcher: new PatternSet(lines.map(({ line, pattern }) => ({ pattern, mark: String(line) }))) };
}

/** What decides, for one scan: the built-in list, the sync folder's ignore file and the design folder's. */
export interface HoldRules {
  root: CompiledIgnoreFile | null;
  folder: CompiledIgnoreFile | null;
  /** The built-in list compiled for this scan (a shared one when absent). */
  builtIn?: PatternSet;
}

/**
 * Whether a path of the sync folder is never sent, and why. `path` is relative to the sync folder, with `/`
 * between names, and ends with `/` for a folder. The built-in list is asked first, of the path inside the design's
 * folder (a design whose folder is named like a tool's backup folder is still a design), and cannot be overridden (a
 * `!pattern` of an ignore file un-ignores only what that file or one before it ignored); then the design folder's
 * ignore file, whose patterns are relative to the design's folder, then the sync folder's.
 */
export function holdReason(path: string, rules: HoldRules): HoldReason | null {
  const inFolder = path.slice(path.indexOf('/') + 1);
  if (inFolder !== '') {
    const builtIn = (rules.builtIn ?? (sharedBuiltIn ??= builtInPatterns())).test(inFolder);
    if (builtIn.ignored && builtIn.rule) {
      const rule = builtInById.get(builtIn.rule.mark ?? '')!;
      return { source: 'built-in', ruleId: rule.id, tool: rule.tool, label: rule.label, pattern: builtIn.rule.pattern };
    }
  }
  // The design folder's file has the last word on what is inside it (a `!` there un-ignores what the root's ignored).
  const folderResult = rules.folder && inFolder !== '' ? rules.folder.matcher.test(inFolder) : null;
  if (folderResult?.ignored && folderResult.rule) return { source: 'ignore-file', file: rules.folder!.file, line: Number(folderResult.rule.mark), pattern: folderResult.rule.pattern };
  if (folderResult?.unignored) return null;
  const rootResult = rules.root ? rules.root.matcher.test(path) : null;
  if (rootResult?.ignored && rootResult.rule) return { source: 'ignore-file', file: rules.root!.file, line: Number(rootResult.rule.mark), pattern: rootResult.rule.pattern };
  return null;
}

/** The key a reason is grouped under ("3 Blender backups not sent" is one group). */
export function holdKey(reason: HoldReason): string {
  return reason.source === 'built-in' ? `built-in:${reason.ruleId}` : `file:${reason.file}:${reason.line}`;
}

/** A reason in words, for the activity log and the command line (the words the window uses too). */
export { holdReasonWords } from '../../../../shared/sync/held-back-words';
