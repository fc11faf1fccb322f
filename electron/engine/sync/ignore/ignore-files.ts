import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineWords } from '../../../../shared/i18n/engine-words';
import { errorWords, WordedError } from '../../../../shared/i18n/worded-error';
import { systemErrorFacts, systemErrorWords } from '../../log/error-words';
import type { Said } from '../../queue/said';
import { holdReasonSaid } from '../hold-reason-said';
import { compileIgnoreFile, holdReason, IGNORE_FILE, MAX_IGNORE_FILE_BYTES, parseIgnoreText, type CompiledIgnoreFile, type IgnoreLineProblem } from './never-sent-rules';

/** An ignore file as read: its patterns compiled (null when there is none), or why it cannot be used. */
export interface LoadedIgnoreFile {
  compiled: CompiledIgnoreFile | null;
  /** In people's words, naming the file: while it is set, nothing is sent (the file may mean to hold something back). */
  problem: string | null;
  /** The problem as facts, which a front end says in the person's language (null when there is none). */
  problemWords?: EngineWords | null;
}

/** The words for an ignore file's refused lines: "Line 3 of .designsyncignore: …". */
export function lineProblemsWords(file: string, problems: readonly IgnoreLineProblem[]): string {
  return problems.map(({ line, problem }) => `Line ${line} of ${file}: ${problem}.`).join(' ');
}

/** The refused lines named one by one in their facts; those after them are counted (stored facts nest only so deep). */
const NAMED_LINES = 5;

/** The facts of an ignore file's refused lines: each line's sentence, the next one after it. */
export function lineProblemsFacts(file: string, problems: readonly IgnoreLineProblem[]): EngineWords {
  const named: EngineWords[] = problems.slice(0, NAMED_LINES).map(({ line, words }) => ({ id: 'ignore.problem.line', values: { line, file, problem: words } }));
  const more = problems.length - named.length;
  let facts: EngineWords | null = more > 0 ? { id: 'ignore.problem.moreLines', values: { count: more } } : null;
  for (const sentence of named.reverse()) facts = facts ? { id: 'ignore.problem.sentences', values: { first: sentence, rest: facts } } : sentence;
  if (!facts) throw new Error('lineProblemsFacts was given no refused line');
  return facts;
}

/** The text of an ignore file (relative to the sync folder), or null when there is none; throws when it cannot be read. */
export async function readIgnoreText(rootPath: string, file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(join(rootPath, file), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_IGNORE_FILE_BYTES) throw new WordedError({ id: 'ignore.problem.tooLarge', values: { size, max: MAX_IGNORE_FILE_BYTES } });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Reads and compiles an ignore file (the sync folder's, or `folder/.designsyncignore`). */
export async function loadIgnoreFile(rootPath: string, file: string): Promise<LoadedIgnoreFile> {
  let text: string | null;
  try {
    text = await readIgnoreText(rootPath, file);
  } catch (error) {
    const why = systemErrorWords(error) ?? (error instanceof Error ? error.message : String(error));
    const whyFacts = errorWords(error) ?? systemErrorFacts(error) ?? why.replace(/\.$/, '');
    return {
      compiled: null,
      problem: `${file} cannot be read (${why.replace(/\.$/, '')}): nothing is sent until it can, since it may hold files back. Fix or remove it.`,
      problemWords: { id: 'ignore.problem.unreadable', values: { file, why: whyFacts } },
    };
  }
  if (text === null) return { compiled: null, problem: null, problemWords: null };
  const { lines, problems } = parseIgnoreText(text);
  if (problems.length > 0) {
    return {
      compiled: null,
      problem: `${lineProblemsWords(file, problems)} Nothing is sent until ${file} is corrected, since it may mean to hold files back.`,
      problemWords: { id: 'ignore.problem.unusable', values: { file, lines: lineProblemsFacts(file, problems) } },
    };
  }
  return { compiled: compileIgnoreFile(file, lines), problem: null, problemWords: null };
}

/**
 * Writes the sync folder's ignore file (empty text removes it), refusing a text with lines that cannot be taken: the
 * file is replaced whole, through a temporary file renamed into place, so a crash never leaves half a list.
 */
export async function writeIgnoreText(rootPath: string, text: string): Promise<void> {
  const { problems } = parseIgnoreText(text);
  if (problems.length > 0) throw new IgnoreFileError(lineProblemsWords(IGNORE_FILE, problems), lineProblemsFacts(IGNORE_FILE, problems));
  if (Buffer.byteLength(text) > MAX_IGNORE_FILE_BYTES) {
    const words: EngineWords = { id: 'ignore.problem.tooManyPatterns', values: { file: IGNORE_FILE, kb: MAX_IGNORE_FILE_BYTES / 1024 } };
    throw new IgnoreFileError(`${IGNORE_FILE} may hold at most ${MAX_IGNORE_FILE_BYTES / 1024} KB of patterns.`, words);
  }
  const target = join(rootPath, IGNORE_FILE);
  if (text.trim() === '') {
    await rm(target, { force: true });
    return;
  }
  const temporary = join(rootPath, `.design-sync-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text.endsWith('\n') ? text : `${text}\n`, { flag: 'wx', mode: (await modeOf(target)) ?? 0o644 });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function modeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return null;
  }
}

/** An ignore file's text refused, in words that name the line (English), and as facts a front end words. */
export class IgnoreFileError extends Error {
  constructor(message: string, readonly words: EngineWords) {
    super(message);
    this.name = 'IgnoreFileError';
  }
}

/** Why the ignore file `file` of the sync folder cannot be used, as facts (null when it can, or there is none). */
export async function ignoreFileProblemWords(rootPath: string, file: string): Promise<EngineWords | null> {
  return (await loadIgnoreFile(rootPath, file)).problemWords ?? null;
}

/**
 * Why a file of the sync folder (`folder/name`) is never sent, by the ignore files as they are on disk at this moment
 * and the built-in list, as a sentence of ours; null when it is sent (or an ignore file cannot be used: the scan stops uploads for
 * that, saying why). Asked just before a change leaves, so that an ignore file changed since the scan queued it holds
 * the file back all the same.
 */
export async function neverSentNow(rootPath: string, path: string): Promise<Said | null> {
  const folder = path.slice(0, path.indexOf('/'));
  const [root, own] = await Promise.all([loadIgnoreFile(rootPath, IGNORE_FILE), folder ? loadIgnoreFile(rootPath, `${folder}/${IGNORE_FILE}`) : null]);
  const reason = holdReason(path, { root: root.compiled, folder: own?.compiled ?? null });
  return reason ? holdReasonSaid(reason) : null;
}
