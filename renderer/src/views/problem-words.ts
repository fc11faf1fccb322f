import type { ContractProblem } from '../../../shared';
import { labelledFieldErrors } from '../../../shared/validation/field-labels';

/** A system error code in brackets, as Node and its libraries name them: "(ECONNREFUSED)", "(UND_ERR_SOCKET)". */
const RAW_CODE = /\s*\((?:E[A-Z0-9]{2,}|ERR_[A-Z0-9_]+|UND_ERR_[A-Z0-9_]+|HPE_[A-Z0-9_]+)\)/g;
/** A line of a stack trace. */
const STACK_LINE = /^\s+at\s/;

/**
 * A problem's text as the window shows it: said once, without raw codes or stack lines (the engine log keeps them).
 * "The service cannot be reached (The service cannot be reached (ECONNREFUSED).)" becomes "The service cannot be reached."
 */
export function windowWords(text: string): string;
export function windowWords(text: string | null): string | null;
export function windowWords(text: string | null): string | null {
  if (text === null) return null;
  const lines = text.split('\n');
  const firstStackLine = lines.findIndex((line) => STACK_LINE.test(line));
  let words = (firstStackLine === -1 ? lines : lines.slice(0, firstStackLine)).join('\n').replace(RAW_CODE, '').trim();
  for (let unnested = unnest(words); unnested !== words; unnested = unnest(words)) words = unnested;
  return words.replace(/\.{2,}$/, '.');
}

/** "X (X…)" → "X…": a message that repeats itself inside brackets is said once. */
function unnest(text: string): string {
  const open = text.indexOf('(');
  if (open <= 0) return text;
  const close = matchingBracket(text, open);
  if (close === -1) return text;
  const outer = text.slice(0, open).trim();
  const inner = text.slice(open + 1, close).trim();
  if (!outer || !inner.toLowerCase().startsWith(outer.toLowerCase().replace(/[.:;]$/, ''))) return text;
  const rest = text.slice(close + 1).replace(/^\.+/, '').trim();
  return `${inner}${rest ? ` ${rest}` : ''}`.trim();
}

function matchingBracket(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return index;
  }
  return -1;
}

/**
 * The contract's checks (zod) word a refused field for programmers ("Too small: expected number to be >=50"): said
 * the way the service says its own ("must be at least 50"), to follow the field's label. Other words pass as they are.
 */
const SCHEMA_WORDS: [RegExp, (...found: string[]) => string][] = [
  [/^Too small: expected string to have >=1 characters?$/, () => "can't be blank"],
  [/^Too small: expected string to have >=(\d+) characters?$/, (n) => `must be at least ${n} characters long`],
  [/^Too big: expected string to have <=(\d+) characters?$/, (n) => `must be at most ${n} characters long`],
  [/^Too small: expected (?:number|int|bigint) to be >=(-?[\d.]+)$/, (n) => `must be at least ${n}`],
  [/^Too small: expected (?:number|int|bigint) to be >(-?[\d.]+)$/, (n) => `must be more than ${n}`],
  [/^Too big: expected (?:number|int|bigint) to be <=(-?[\d.]+)$/, (n) => `must be at most ${n}`],
  [/^Too big: expected (?:number|int|bigint) to be <(-?[\d.]+)$/, (n) => `must be less than ${n}`],
  [/^Invalid input: expected int, received number$/, () => 'must be a whole number'],
  [/^Invalid input: expected number, received \w+$/, () => 'must be a number'],
  [/^Invalid URL$/, () => 'must be a web address (https://…)'],
  [/^Invalid option: expected one of .*$/, () => 'is not one of the choices'],
  [/^Invalid input(?:: .*)?$/, () => 'is not right'],
];

export function fieldMessageWords(message: string): string {
  for (const [pattern, words] of SCHEMA_WORDS) {
    const found = pattern.exec(message);
    if (found) return words(...found.slice(1));
  }
  return message;
}

/** A contract problem in the window's words: field errors with the labels the window shows, anything else said once. */
export function problemWords(problem: ContractProblem): string {
  if (problem.kind === 'validation') {
    const worded = Object.fromEntries(Object.entries(problem.fieldErrors).map(([field, messages]) => [field, messages.map(fieldMessageWords)]));
    const sentences = labelledFieldErrors(worded);
    if (sentences.length > 0) return `${sentences.join('. ')}.`;
  }
  return windowWords(problem.message);
}

/**
 * The service's refusal, then what was searched instead: said once ("The service's search failed: …" only when the
 * problem does not already say the search failed).
 */
export function searchFailedWords(problem: string): string {
  const said = problem.replace(/[.\s]+$/, '');
  if (!said) return 'The service\'s search failed. The cached designs were searched.';
  if (/\bsearch\b/i.test(said)) return `${said}. The cached designs were searched.`;
  // "The service…" reads on after a colon in lower case; "HTTP 500…" keeps its capitals.
  const lead = /^[A-Z][a-z]/.test(said) ? said[0]!.toLowerCase() + said.slice(1) : said;
  return `The service's search failed: ${lead}. The cached designs were searched.`;
}
