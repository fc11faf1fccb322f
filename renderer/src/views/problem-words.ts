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

/** A contract problem in the window's words: field errors with the labels the window shows, anything else said once. */
export function problemWords(problem: ContractProblem): string {
  if (problem.kind === 'validation') {
    const sentences = labelledFieldErrors(problem.fieldErrors);
    if (sentences.length > 0) return `${sentences.join('. ')}.`;
  }
  return windowWords(problem.message);
}
